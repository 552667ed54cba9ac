package pipecli

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// inProcessPoll is how often a command working a run in-process looks at it.
const inProcessPoll = 100 * time.Millisecond

// workInProcess runs a worker over job in this process until the run id
// settles, calling watch with the run at each look (for a progress bar),
// and answers the settled run. The worker is drained before it returns.
func (a *app) workInProcess(ctx context.Context, pool *pgxpool.Pool, job pipeline.Registrable, queue string, slots int, id string, watch func(*pipeline.RunDetail)) (*pipeline.RunDetail, error) {
	return a.workJobsInProcess(ctx, pool, []pipeline.Registrable{job}, queue, slots, id, watch)
}

// workJobsInProcess is workInProcess with jobs registered: a parallel
// import's parent and its range runs.
func (a *app) workJobsInProcess(ctx context.Context, pool *pgxpool.Pool, jobs []pipeline.Registrable, queue string, slots int, id string, watch func(*pipeline.RunDetail)) (*pipeline.RunDetail, error) {
	var d *pipeline.RunDetail
	err := a.workQueuesInProcess(ctx, pool, jobs, map[string]int{queue: slots}, func(ctx context.Context) error {
		var err error
		d, err = awaitRun(ctx, pipeline.NewAdmin(pool), id, watch)
		return err
	})
	return d, err
}

// workQueuesInProcess runs a worker over jobs on queues (slots each) in
// this process while await runs, and drains it before it returns.
func (a *app) workQueuesInProcess(ctx context.Context, pool *pgxpool.Pool, jobs []pipeline.Registrable, queues map[string]int, await func(ctx context.Context) error) error {
	reg, err := pipeline.NewRegistry(jobs...)
	if err != nil {
		return err
	}
	w, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{
		Registry: reg, Queues: queues,
		PollInterval: demoPoll, IdlePollMax: demoIdleMax, NoWake: true,
		// The command prints how the run ended itself; the worker's log says
		// only what went wrong beside it.
		Logger: slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: slog.LevelError})),
	})
	if err != nil {
		return err
	}
	if err := w.Start(ctx); err != nil {
		return err
	}
	defer func() {
		drainCtx, cancel := context.WithTimeout(context.Background(), demoDrain)
		defer cancel()
		_ = w.Shutdown(drainCtx)
	}()
	return await(ctx)
}

// awaitRun polls the run until it leaves the live states. It rides out
// PostgreSQL going away (a restart, a failover): it looks again until the
// database answers, as the worker does.
func awaitRun(ctx context.Context, adm *pipeline.Admin, id string, watch func(*pipeline.RunDetail)) (*pipeline.RunDetail, error) {
	tick := time.NewTicker(inProcessPoll)
	defer tick.Stop()
	for {
		d, err := adm.Show(ctx, id)
		if err != nil && ctx.Err() == nil && !errcode.Unavailable(err) {
			return nil, err
		}
		if err == nil {
			if watch != nil {
				watch(d)
			}
			if !d.State.Live() {
				return d, nil
			}
		}
		select {
		case <-ctx.Done():
			return nil, errcode.Wrap(ctx.Err(), errcode.Aborted, "stopped waiting for run %s", id).
				WithFix("the run goes on under any worker: `pipe jobs show " + id + "`")
		case <-tick.C:
		}
	}
}

// runError answers the coded error a run that did not end done ended with:
// its code, its message and fix, and the run's id for `pipe jobs show`.
func runError(d *pipeline.RunDetail) error {
	if d.State == "done" {
		return nil
	}
	if d.LastError == nil {
		return &runFailure{id: d.ID, err: errcode.New(errcode.Invariant, "the run ended %s", d.State).
			WithFix("see how it ended: `pipe jobs show " + d.ID + "`")}
	}
	msg := strings.TrimSuffix(d.LastError.Message, terminalSuffix)
	return &runFailure{id: d.ID, err: errcode.New(errcode.Code(d.LastError.Code), "%s", msg).WithFix(d.LastError.Fix)}
}
