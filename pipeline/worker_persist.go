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
	persistFirstWait = 20 * time.Millisecond
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
		ctx, cancel := persistContext(kind)
		ok, err := write(ctx)
		var state string
		if err == nil && !ok {
			state, err = w.refusedAs(ctx, row, kind, retried)
		}
		cancel()
		if err == nil {
			w.persisted(row, kind, state, retried, tries)
			return ok || state == "landed"
		}
		coded := errcode.Postgres(context.Background(), err, "settle "+kind)
		if !persistRetryable(coded, tries) {
			w.log.error("jobs.settle.failed", "job", row.name, "id", row.id.String(), "settle", kind, "error", coded.Error())
			return false
		}
		if !retried {
			retried = true
			w.markRetrying(row)
			w.log.debug("jobs.settle.retrying", "job", row.name, "id", row.id.String(), "settle", kind, "error", coded.Error())
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

// persistContext bounds one try of a settle by flushTimeout. A completion
// goes through the batcher, whose flush carries that bound itself, so its
// hot path sets no timer of its own.
func persistContext(kind string) (context.Context, context.CancelFunc) {
	if kind == "completed" {
		return context.Background(), func() {}
	}
	return context.WithTimeout(context.Background(), flushTimeout)
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

func (w *Worker) persisted(row *claimed, kind, refused string, retried bool, tries int) {
	if retried {
		w.log.debug("jobs.settle.landed", "job", row.name, "id", row.id.String(), "settle", kind, "tries", tries, "refused", refused)
	}
	switch refused {
	case "cancelled":
		w.cancelled(row)
	case "unowned":
		w.unowned(row, kind)
	}
}

// refusedAs reads why a settle's fence did not hold: "landed" when an
// earlier try had in fact committed (its answer lost with the connection:
// the row carries this claim and the state the settle writes), "cancelled"
// when an operator cancelled the run while it ran, else "unowned" (the
// run's claim moved on). A failed read is an error: the settle is tried
// again.
func (w *Worker) refusedAs(ctx context.Context, row *claimed, kind string, retried bool) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, flushTimeout)
	defer cancel()
	state, claims, err := w.store.rowState(ctx, row)
	switch {
	case err != nil:
		return "", err
	case claims != row.claims:
		return "unowned", nil
	case retried && state == settledState(kind):
		return "landed", nil
	case state == "cancelled":
		return "cancelled", nil
	}
	return "unowned", nil
}

// settledState is the state a settle of kind leaves the row in.
func settledState(kind string) string {
	switch kind {
	case "completed":
		return "done"
	case "dead", "failed", "suspended":
		return kind
	case evRefused:
		return "failed"
	}
	return "ready"
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
	err := s.pool.QueryRow(ctx, `select state, claims from pipe.runs where id = $1`, row.id).Scan(&state, &claims)
	if err == pgx.ErrNoRows {
		return "", 0, nil
	}
	return state, claims, err
}
