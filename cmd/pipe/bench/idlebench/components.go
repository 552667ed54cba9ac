package idlebench

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/console"
	"github.com/pipekit/pipe/consumer"
	"github.com/pipekit/pipe/consumer/pgtail"
	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/pipeline"
)

// component is one running component of the bench's.
type component struct {
	stop   func()
	pickup func(ctx context.Context, samples int) (*Pickup, error) // the relay's only
	note   string
}

// starter starts a component on pool.
type starter func(ctx context.Context, pool *pgxpool.Pool, o Options) (*component, error)

var starters = map[string]starter{
	"worker":    startWorkerAlone,
	"scheduler": startScheduler,
	"consumer":  startConsumer,
	"relay":     startRelay,
	"console":   startConsole,
}

// withWake answers o logging through h.
func withWake(o Options, h slog.Handler) Options {
	o.Logger = slog.New(h)
	return o
}

// startWorker starts a stock worker (the hourly maintenance job and jobs)
// with the default settings.
func startWorker(ctx context.Context, pool *pgxpool.Pool, o Options, jobs ...pipeline.Registrable) (func(), error) {
	reg, err := pipeline.NewRegistry(append(jobs, pipeline.MaintenanceJob(pipeline.Retention{}))...)
	if err != nil {
		return nil, err
	}
	w, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg, Logger: o.Logger})
	if err != nil {
		return nil, err
	}
	if err := w.Start(ctx); err != nil {
		return nil, err
	}
	return func() {
		sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = w.Shutdown(sctx)
	}, nil
}

func startWorkerAlone(ctx context.Context, pool *pgxpool.Pool, o Options) (*component, error) {
	stop, err := startWorker(ctx, pool, o)
	if err != nil {
		return nil, err
	}
	return &component{stop: stop, note: "a stock worker, default settings, no runs"}, nil
}

func startScheduler(ctx context.Context, pool *pgxpool.Pool, o Options) (*component, error) {
	task := pipeline.MaintenanceTask(pipeline.MaintenanceJob(pipeline.Retention{}))
	s, err := pipeline.NewScheduler(pool, pipeline.SchedulerConfig{Tasks: []*pipeline.Task{task}, Logger: o.Logger})
	if err != nil {
		return nil, err
	}
	if err := s.Start(ctx); err != nil {
		return nil, err
	}
	return &component{note: "a scheduler leading the stock hourly maintenance task", stop: func() {
		sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = s.Stop(sctx)
	}}, nil
}

// idleEvent is a row of the consumer's table.
type idleEvent struct {
	ID   int64  `db:"id"`
	Body string `db:"body"`
}

func startConsumer(ctx context.Context, pool *pgxpool.Pool, o Options) (*component, error) {
	if _, err := pool.Exec(ctx, `create table idle_events (id bigserial primary key, body text not null)`); err != nil {
		return nil, err
	}
	tail, err := pgtail.New(pool, pgtail.Options[idleEvent]{Table: pg.Relation{Name: "idle_events"}, Channel: "idle_events", Logger: o.Logger})
	if err != nil {
		return nil, err
	}
	c, err := consumer.New(consumer.Options[pgtail.Row[idleEvent], int64]{
		Name: "idle.events",
		Keys: func(context.Context, pgx.Tx) ([]string, error) { return []string{"all"}, nil },
		Open: tail.Open, Lag: tail.Lag, Cursor: consumer.StoredCursor[int64](),
		Handle: func(_ context.Context, _ pgx.Tx, _ string, rows []pgtail.Row[idleEvent]) (int64, error) {
			return pgtail.Cursor(rows), nil
		},
	})
	if err != nil {
		return nil, err
	}
	stop, err := startWorker(ctx, pool, o, c.Jobs()...)
	if err != nil {
		return nil, err
	}
	if _, err := c.Arm(ctx, pool); err != nil {
		stop()
		return nil, err
	}
	return &component{stop: stop, note: "a table-tail consumer (pgtail, with a Channel) of one key, on a stock worker"}, nil
}

func startConsole(ctx context.Context, pool *pgxpool.Pool, _ Options) (*component, error) {
	h, err := console.New(pipeline.NewAdmin(pool), console.Options{DB: pool})
	if err != nil {
		return nil, err
	}
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return &component{note: "the console's server, no browser open", stop: func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
			_ = srv.Close()
		}
	}}, nil
}
