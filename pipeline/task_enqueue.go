package pipeline

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// Enqueue queues the task's entries now, for an occurrence at at, as the
// scheduler's fire would — in one transaction (the caller's, when db is
// one), each entry's input built from the occurrence — without moving the
// task's watermark: its schedule goes on as before. An entry whose run is
// still live for that occurrence is deduped. It answers how many runs it
// queued. `pipe tasks run` calls it.
func (t *Task) Enqueue(ctx context.Context, db DB, at time.Time) (int, error) {
	occ := Occurrence{Task: t.name, At: at.In(t.loc), Through: at.In(t.loc)}
	var queued int
	err := pgx.BeginFunc(ctx, db, func(tx pgx.Tx) (err error) {
		queued, err = t.enqueueEntries(ctx, tx, occ)
		return err
	})
	if err != nil {
		return 0, taskStoreErr(t.name, "enqueue", err)
	}
	return queued, nil
}
