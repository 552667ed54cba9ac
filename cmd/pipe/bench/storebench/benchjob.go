package storebench

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/cmd/pipe/bench/benchwait"
	"github.com/pipekit/pipe/pipeline"
)

// The bench's own jobs, in queues of their own beside the fixture's.
const (
	benchQueue  = "pipe.bench.store"
	noopName    = "pipe.bench.store.noop"
	streamQueue = "pipe.bench.store.stream"
	streamName  = "pipe.bench.store.stream"
)

// shippedWorker describes the worker the bench runs, for the output.
const shippedWorker = "pipe worker's defaults: WorkerConfig{Registry, Logger} alone (one queue, 100 slots, lease 30s, " +
	"poll 250ms, fetch cooldown 2ms, LISTEN wake), pgxpool's default pool for the URL; " +
	"differs only in its logger (warnings) and in running no scheduler beside it"

// input is a bench run's input: I numbers the run, and is its key.
type input struct {
	I int `json:"i"`
}

// none is a bench run's result.
type none struct{}

type benchJob = pipeline.Job[input, none]

// noopJob declares the job name, in queue, whose body counts its runs in
// ran and returns.
func noopJob(name, queue string, ran *atomic.Int64) (*benchJob, error) {
	return pipeline.NewJob(name, func(in input) string { return strconv.Itoa(in.I) },
		func(context.Context, *pipeline.Run[input]) (none, error) {
			ran.Add(1)
			return none{}, nil
		}, pipeline.JobOptions[input, none]{Queue: queue})
}

// startWorker starts a worker over pool for job as `pipe worker` makes one,
// and answers a stop that is safe to call twice.
func startWorker(ctx context.Context, pool *pgxpool.Pool, job pipeline.Registrable, logger *slog.Logger) (*pipeline.Worker, func() error, error) {
	reg, err := pipeline.NewRegistry(job)
	if err != nil {
		return nil, nil, err
	}
	w, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg, Logger: logger})
	if err != nil {
		return nil, nil, err
	}
	if err := w.Start(ctx); err != nil {
		return nil, nil, err
	}
	var stopped atomic.Bool
	return w, func() error {
		if stopped.Swap(true) {
			return nil
		}
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
		defer cancel()
		return w.Stop(sctx)
	}, nil
}

// stallAfter fails a wait whose count has not moved for this long.
const stallAfter = time.Minute

// waitFor waits for count to reach target, failing when it stalls for
// stallAfter.
func waitFor(ctx context.Context, what string, count func() int64, target int64) error {
	if err := benchwait.Count(ctx, what, count, target, stallAfter); err != nil {
		return fmt.Errorf("store bench: %w", err)
	}
	return nil
}
