package pipeline

import (
	"context"

	"github.com/google/uuid"
	"github.com/pipekit/pipe/errcode"
)

var sqlTaskFire = mustQuery("task_fire")

// fireResult is what one fire statement did.
type fireResult struct {
	hit      bool // the watermark moved: the occurrence is fired
	inserted int  // job rows written; the rest deduped onto live runs
	entries  int
}

// fireOccurrence runs f for t as leader holder: one statement moves the
// watermark from f.prev to f.through and inserts the occurrence's jobs, or,
// if the watermark moved on, the task is paused or holder's lease lapsed,
// does nothing.
func fireOccurrence(ctx context.Context, db DB, holder string, t *Task, f fire) (fireResult, error) {
	occ := Occurrence{Task: t.name, At: f.at.In(t.loc), Through: f.through.In(t.loc)}
	cols, err := t.entryColumns(occ)
	if err != nil {
		return fireResult{}, err
	}
	res := fireResult{entries: len(cols.ids)}
	var woken int
	err = db.QueryRow(ctx, sqlTaskFire, t.name, holder, f.prev, f.through, f.at,
		cols.ids, cols.names, cols.queues, cols.tenants, cols.keys, cols.inputs, cols.attempts, cols.ckeys).
		Scan(&res.hit, &res.inserted, &woken)
	if err != nil {
		return fireResult{}, taskStoreErr(t.name, "fire", err)
	}
	return res, nil
}

// entryColumns is the column-wise form of an occurrence's jobs.
type entryColumns struct {
	ids                          []uuid.UUID
	names, queues, tenants, keys []string
	inputs                       [][]byte
	attempts                     []int32
	ckeys                        []*string
}

func (t *Task) entryColumns(o Occurrence) (*entryColumns, error) {
	c := &entryColumns{}
	for _, e := range t.entries {
		r, err := e.build(o)
		if err != nil {
			return nil, err
		}
		c.ids, c.names, c.queues = append(c.ids, r.id), append(c.names, r.name), append(c.queues, r.queue)
		c.tenants, c.keys, c.inputs = append(c.tenants, r.tenant), append(c.keys, r.key), append(c.inputs, r.input)
		c.attempts, c.ckeys = append(c.attempts, r.attempts), append(c.ckeys, r.ckey)
	}
	return c, nil
}

// taskStoreErr wraps a store error once, naming the task and the statement,
// never quoting the driver's message.
func taskStoreErr(task, what string, err error) error {
	return errcode.Postgres(context.Background(), err, "task "+task+": "+what)
}
