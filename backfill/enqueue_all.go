package backfill

import (
	"context"
	"encoding/json"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// EnqueuePage is how many rows [EnqueueAll] reads and enqueues at a time.
const EnqueuePage = 1000

// EnqueueAll enqueues job once per row of query — past
// pipeline.MaxEnqueueBatch, where EnqueueMany refuses with
// X_JOB_ENQUEUE_BATCH_TOO_LARGE. Each row is decoded into the job's input
// as its JSON form (to_jsonb of the row: column names are the JSON field
// names). The rows are read through a cursor a page at a time and enqueued
// a page per EnqueueMany, all in one transaction (db's own when db is one):
// every job is queued or none is, and a second call dedupes on the
// idempotency keys of the runs still live. It answers how many rows were
// enqueued (Deduped ones included). query is SQL the application declares;
// args are its parameters.
//
// For sets too large for one transaction, declare a backfill whose Handle
// enqueues each batch's rows through its tx: paged, resumable, and exactly
// once per row.
func EnqueueAll[In, Out any](ctx context.Context, db pipeline.DB, job *pipeline.Job[In, Out], query string, args ...any) (int64, error) {
	var n int64
	err := pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "declare pipe_enqueue_all no scroll cursor for select to_jsonb(q) from ("+query+") q", args...); err != nil {
			return err
		}
		for {
			ins, err := fetchInputs[In](ctx, tx)
			if err != nil || len(ins) == 0 {
				return err
			}
			if _, err := job.EnqueueMany(ctx, tx, ins); err != nil {
				return err
			}
			n += int64(len(ins))
		}
	})
	if err != nil {
		return 0, errcode.Postgres(ctx, err, "enqueue all")
	}
	return n, nil
}

func fetchInputs[In any](ctx context.Context, tx pgx.Tx) ([]In, error) {
	rows, _ := tx.Query(ctx, "fetch 1000 from pipe_enqueue_all")
	raws, err := pgx.CollectRows(rows, pgx.RowTo[[]byte])
	if err != nil {
		return nil, err
	}
	ins := make([]In, len(raws))
	for i, raw := range raws {
		if err := json.Unmarshal(raw, &ins[i]); err != nil {
			return nil, errcode.Wrap(err, errcode.JobInputInvalid, "enqueue all: row %d of a page does not decode into the job's input", i+1).
				WithFix("select the columns the input's JSON field names take, with types that decode into them")
		}
	}
	return ins, nil
}
