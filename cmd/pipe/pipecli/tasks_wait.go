package pipecli

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/pipeline"
)

// taskRan is `pipe tasks run --wait`'s answer: each entry's run and how
// it ended.
type taskRan struct {
	Task string         `json:"task"`
	At   time.Time      `json:"at"`
	Runs []taskRanEntry `json:"runs"`
}

type taskRanEntry struct {
	ID      string         `json:"id"`
	Job     string         `json:"job"`
	State   pipeline.State `json:"state"`
	Deduped bool           `json:"deduped,omitempty"`
}

// runTaskHere queues task's runs for at and works them in this process —
// one slot a run, on their queues — reporting what each meets, until every
// one has settled. A run that did not end done is the command's error.
func (a *app) runTaskHere(ctx context.Context, pool *pgxpool.Pool, task *pipeline.Task, at time.Time) error {
	res, err := task.EnqueueRuns(ctx, pool, at)
	if err != nil {
		return err
	}
	jobs := task.Jobs()
	queues := map[string]int{}
	for _, j := range jobs {
		queues[j.Describe().Queue] = len(res)
	}
	adm := pipeline.NewAdmin(pool)
	out := taskRan{Task: task.Name(), At: at}
	var failed error
	err = a.workQueuesInProcess(ctx, pool, jobs, queues, func(ctx context.Context) error {
		for _, r := range res {
			rep := newWaitReporter(a, adm, nil, len(res))
			d, err := adm.Show(ctx, r.ID)
			if err != nil {
				return err
			}
			rep.enqueued(d.Name, d.Queue, r)
			if d, err = awaitRun(ctx, adm, r.ID, rep.watch); err != nil {
				return err
			}
			out.Runs = append(out.Runs, taskRanEntry{ID: r.ID, Job: d.Name, State: d.State, Deduped: r.Deduped})
			if failed == nil {
				failed = runError(d)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if failed != nil {
		return failed
	}
	return a.emit(out, fmt.Sprintf("ran %d run(s) of task %s: all done", len(out.Runs), task.Name()))
}
