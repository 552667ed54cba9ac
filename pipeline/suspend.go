package pipeline

import (
	"context"
	"encoding/json"
	"time"

	"github.com/jackc/pgx/v5"
)

// suspension is what Sleep and WaitForEvent hand the worker: the run is
// parked until an instant, its attempt uncounted, and its worker released.
// It travels as an error so a body returns it the way it returns any error.
type suspension struct {
	step  string
	kind  string          // the journal event: slept, wait.started or suspended
	until time.Time       // the wake time (database clock)
	data  json.RawMessage // the journal event's data
	wait  *waitRow        // the waits row a wait.started writes
}

type waitRow struct {
	event string
	match json.RawMessage
	since time.Time
}

func (s *suspension) Error() string {
	return "the run is suspended at step " + s.step + " (return this error from the body)"
}

// suspend parks a run, fenced on its claim: suspended, run_at the wake time,
// the attempt given back, the journal event and any waits row written in the
// same statement.
func (s *store) suspend(ctx context.Context, row *claimed, sp *suspension) (bool, error) {
	var event, since any
	var match []byte
	if sp.wait != nil {
		event, match, since = sp.wait.event, sp.wait.match, sp.wait.since
	}
	var id [16]byte
	err := s.pool.QueryRow(ctx, sqlSuspend.SQL, sqlSuspend.Args(pgx.NamedArgs{
		"id": row.id, "claims": row.claims, "until": sp.until,
		"kind": sp.kind, "step": sp.step, "data": sp.data,
		"event": event, "match": match, "since": since,
	})...).Scan(&id)
	if err == pgx.ErrNoRows {
		return false, nil
	}
	return err == nil, err
}
