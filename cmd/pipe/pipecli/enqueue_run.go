package pipecli

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/pipeline"
)

// runQueued is what a command that enqueues prints without --wait.
type runQueued struct {
	ID      string `json:"id"`
	RunID   string `json:"runId"`
	Deduped bool   `json:"deduped"`
}

// enqueueOrWait enqueues one run of job: without wait it prints the run's
// id for the fleet's workers; with wait it works the run in this process
// with a progress bar and prints line(id, result), or the result with
// --json. A run that does not end done is its coded error.
func enqueueOrWait[In, Out any](a *app, c *cobra.Command, job *pipeline.Job[In, Out], in In, wait bool, line func(id string, out Out) string) error {
	_, err := checkAndRun(a, c, job, nil, in, wait, line)
	return err
}

// preCheck is a job's own check of an input against the live database and
// its files before any run of it exists (importrows.Check,
// exportrows.Check: the planning the run's first step does, rolled back).
type preCheck[In any] func(ctx context.Context, db pipeline.DB, in In) error

// checkAndRun is [enqueueOrWait] after check (nil: none): an input check
// refuses is refused at once with its code, and nothing is enqueued. It
// answers the run's result with wait (the zero Out without).
func checkAndRun[In, Out any](a *app, c *cobra.Command, job *pipeline.Job[In, Out], check preCheck[In], in In, wait bool, line func(id string, out Out) string) (Out, error) {
	var out Out
	ctx := c.Context()
	pool, err := a.connect(ctx, migrated)
	if err != nil {
		return out, err
	}
	defer pool.Close()
	if check != nil {
		if err := check(ctx, pool, in); err != nil {
			return out, err
		}
	}
	if !wait {
		res, err := job.Enqueue(ctx, pool, in)
		if err != nil {
			return out, err
		}
		return out, a.emit(runQueued{ID: res.ID, RunID: res.RunID, Deduped: res.Deduped}, queuedLine(job.Name(), res))
	}
	bar := newProgressBar(a.stderr)
	id, out, err := runHere(ctx, a, pool, job, in, newWaitReporter(a, pipeline.NewAdmin(pool), bar, slotsFor(in)))
	bar.done()
	if err != nil {
		return out, err
	}
	return out, a.emit(out, line(id, out))
}

// queuedLine says what an enqueue did: a new run, or — the same input
// asked for while a run of it is live — that run, not enqueued again.
func queuedLine(name string, res pipeline.EnqueueResult) string {
	if res.Deduped {
		return fmt.Sprintf("not enqueued: a %s run with the same input is live, run %s (see `pipe jobs show %s`)", name, res.ID, res.ID)
	}
	return fmt.Sprintf("enqueued %s run %s; a `pipe worker` runs it (see `pipe jobs show %s`)", name, res.ID, res.ID)
}

// runHere enqueues one run of job, works it in this process until it
// settles and answers its id and decoded result; a run that does not end
// done is its coded error. rep, when not nil, reports what the wait meets.
func runHere[In, Out any](ctx context.Context, a *app, pool *pgxpool.Pool, job *pipeline.Job[In, Out], in In, rep *waitReporter) (string, Out, error) {
	var out Out
	res, err := job.Enqueue(ctx, pool, in)
	if err != nil {
		return "", out, err
	}
	var watch func(*pipeline.RunDetail)
	if rep != nil {
		rep.enqueued(job.Name(), job.Queue(), res)
		watch = rep.watch
	}
	d, err := a.workInProcess(ctx, pool, job, job.Queue(), slotsFor(in), res.ID, watch)
	if err != nil {
		return res.ID, out, err
	}
	if err := runError(d); err != nil {
		return res.ID, out, err
	}
	return res.ID, out, json.Unmarshal(d.Result, &out)
}

// slotsFor answers the slots an in-process worker needs for in: one, or
// for a parallel export its parent's and one a range.
func slotsFor(in any) int {
	if e, ok := in.(exportrows.TableExport); ok && e.Parallel > 1 {
		return e.Parallel + 1
	}
	return 1
}
