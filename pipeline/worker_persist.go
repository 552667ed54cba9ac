package pipeline

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pipekit/pipe/errcode"
)

// The back-off of a settle tried again: from persistFirstWait, doubling to
// persistMaxWait.
const (
	persistFirstWait = 100 * time.Millisecond
	persistMaxWait   = 2 * time.Second
	// persistMaxTries bounds the tries of a settle that failed for another
	// reason than a lost database (a conflict, a timeout): a lost database
	// is waited out for as long as the worker holds the run.
	persistMaxTries = 10
)

// persist writes one settle of row until it lands or its fence refuses it.
// A write that failed because PostgreSQL went away is tried again, backing
// off from 100 ms to 2 s, for as long as the worker does not abandon its
// runs (a drain past its deadline); meanwhile the heartbeat keeps renewing
// the run's lease, so a restart of the database costs the run nothing. A
// conflict or a timeout is tried again a few times. It answers whether the
// write landed; a refused fence is an operator's cancel or a lost claim.
func (w *Worker) persist(row *claimed, kind string, write func(context.Context) (bool, error)) bool {
	wait, retried := persistFirstWait, false
	for tries := 1; ; tries++ {
		ctx, cancel := context.WithTimeout(context.Background(), flushTimeout)
		ok, err := write(ctx)
		if err == nil && !ok && retried {
			ok = w.landedBefore(ctx, row, kind)
		}
		cancel()
		if err == nil {
			w.persisted(row, kind, ok, retried, tries)
			return ok
		}
		coded := errcode.Postgres(context.Background(), err, "settle "+kind)
		if !persistRetryable(coded, tries) {
			w.log.error("jobs.settle.failed", "job", row.name, "id", row.id.String(), "settle", kind, "error", coded.Error())
			return false
		}
		if !retried {
			retried = true
			w.markRetrying(row)
			w.log.warn("jobs.settle.retrying", "job", row.name, "id", row.id.String(), "settle", kind, "error", coded.Error())
		}
		select {
		case <-w.abandon:
			w.log.error("jobs.settle.failed", "job", row.name, "id", row.id.String(), "settle", kind, "error", coded.Error())
			return false
		case <-time.After(wait):
		}
		wait = min(wait*2, persistMaxWait)
	}
}

func persistRetryable(err error, tries int) bool {
	switch errcode.CodeOf(err) {
	case errcode.PostgresUnavailable:
		return true
	case errcode.PostgresRefused:
		return false
	}
	return tries < persistMaxTries
}

func (w *Worker) persisted(row *claimed, kind string, ok, retried bool, tries int) {
	if retried {
		w.log.info("jobs.settle.landed", "job", row.name, "id", row.id.String(), "settle", kind, "tries", tries, "landed", ok)
	}
	if !ok {
		w.refused(row, kind)
	}
}

// landedBefore answers whether a settle whose earlier try failed had in fact
// committed (the answer was lost with the connection): the row still carries
// this claim and the state the settle writes.
func (w *Worker) landedBefore(ctx context.Context, row *claimed, kind string) bool {
	state, claims, err := w.store.rowState(ctx, row)
	if err != nil || claims != row.claims {
		return false
	}
	return state == settledState(kind)
}

// settledState is the state a settle of kind leaves the row in.
func settledState(kind string) string {
	switch kind {
	case "completed", "dead", "failed", "suspended":
		return kind
	case evRefused:
		return "failed"
	}
	return "ready"
}

// refused accounts a settle whose fence did not hold: an operator cancelled
// the run while it ran, or the run's claim moved on.
func (w *Worker) refused(row *claimed, kind string) {
	ctx, cancel := context.WithTimeout(context.Background(), flushTimeout)
	defer cancel()
	if state, claims, err := w.store.rowState(ctx, row); err == nil && claims == row.claims && state == "cancelled" {
		w.cancelled(row)
		return
	}
	w.unowned(row, kind)
}

func (w *Worker) unowned(row *claimed, why string) {
	w.stats.Unowned.Add(1)
	w.log.warn("jobs.settle.unowned", "job", row.name, "id", row.id.String(), "settle", why)
}

// markRetrying lets the heartbeat renew a settling run's lease while its
// settle waits for the database.
func (w *Worker) markRetrying(row *claimed) {
	w.mu.Lock()
	h := w.held[row.id]
	w.mu.Unlock()
	if h != nil {
		h.retrying.Store(true)
	}
}

// rowState reads a run's state and claim count.
func (s *store) rowState(ctx context.Context, row *claimed) (string, int32, error) {
	var state string
	var claims int32
	err := s.pool.QueryRow(ctx, `select state, claims from pipe.jobs where id = $1`, row.id).Scan(&state, &claims)
	if err == pgx.ErrNoRows {
		return "", 0, nil
	}
	return state, claims, err
}
