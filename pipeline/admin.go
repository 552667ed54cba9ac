package pipeline

import (
	"context"
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/pipekit/pipe/errcode"
)

// Admin is the operator's view of the queue: list, show, requeue, cancel,
// promote, remove and resolve-step. It reads and writes through db, so every
// call can join the caller's transaction.
type Admin struct {
	db DB
}

// NewAdmin answers the operator API over db.
func NewAdmin(db DB) *Admin { return &Admin{db: db} }

// JobRow is one job as a listing shows it.
type JobRow struct {
	ID             string     `json:"id"`
	RunID          string     `json:"runId"`
	Name           string     `json:"name"`
	Queue          string     `json:"queue"`
	Tenant         string     `json:"tenant,omitempty"`
	IdempotencyKey string     `json:"idempotencyKey"`
	State          State      `json:"state"`
	Attempt        int        `json:"attempt"`
	MaxAttempts    int        `json:"maxAttempts"`
	RunAt          time.Time  `json:"runAt"`
	CreatedAt      time.Time  `json:"createdAt"`
	FinishedAt     *time.Time `json:"finishedAt,omitempty"`
}

func parseID(id string) (uuid.UUID, error) {
	u, err := uuid.Parse(id)
	if err != nil || u.String() != id {
		return uuid.UUID{}, errcode.New(errcode.IDInvalid, "the job id is not a lowercase UUID").
			WithFix("copy the id from `pipe jobs list`")
	}
	return u, nil
}

func notFound() error {
	return errcode.New(errcode.JobNotFound, "no job has that id").WithFix("list jobs with `pipe jobs list`")
}

// lockRow reads a job's state under a row lock inside tx. A finished run
// of an earlier layout that the migration has not moved yet is moved into
// pipe.runs first, so that every operator's command works on pipe.runs.
func lockRow(ctx context.Context, tx pgx.Tx, id uuid.UUID) (state State, err error) {
	const read = `select state from pipe.runs where id = $1 for update`
	err = tx.QueryRow(ctx, read, id).Scan(&state)
	if err != pgx.ErrNoRows {
		return state, err
	}
	var adopted bool
	if err := tx.QueryRow(ctx, `select pipe.adopt_legacy_run($1)`, id).Scan(&adopted); err != nil {
		return "", err
	}
	if err = tx.QueryRow(ctx, read, id).Scan(&state); err == pgx.ErrNoRows {
		return "", notFound()
	}
	return state, err
}

// wakeQueueOf wakes idle workers serving the job's queue when tx commits.
func wakeQueueOf(ctx context.Context, tx pgx.Tx, id uuid.UUID) error {
	_, err := tx.Exec(ctx, `select pg_notify('pipe_jobs', queue) from pipe.runs where id = $1`, id)
	return err
}

func journal(ctx context.Context, tx pgx.Tx, id uuid.UUID, kind, step string, data any) error {
	var raw []byte
	if data != nil {
		var err error
		if raw, err = json.Marshal(data); err != nil {
			return err
		}
	}
	var stepArg *string
	if step != "" {
		stepArg = &step
	}
	// The row lives with its run: in the open journal while the run is
	// open, else in its finished partition.
	_, err := tx.Exec(ctx, `insert into pipe.run_events (job_id, kind, attempt, step, data, run_state, run_finished_at)
		select id, $2, attempt, $3, $4, case when finished_at is null then 'open' else state end, finished_at
		from pipe.runs where id = $1`, id, kind, stepArg, raw)
	return err
}

func adminErr(what string, err error) error {
	if err == nil {
		return nil
	}
	return errcode.Postgres(context.Background(), err, what)
}

// onRun runs an operator's command on one run in its own transaction, and
// again when the run moved to another partition under it (a worker settling
// it as the command locked it): the command then reads the run's new state
// and answers for that, as it would had it come a moment later.
func (a *Admin) onRun(ctx context.Context, verb string, fn func(pgx.Tx) error) error {
	return adminErr(verb, retryMoved(ctx, a.db, func() error {
		return pgx.BeginFunc(ctx, a.db, fn)
	}))
}
