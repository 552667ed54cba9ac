package subjectbench

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/pipekit/pipe/pipeline"
)

// traced runs job over in in a worker of its own whose spans are
// recorded, and answers the run's figures.
func traced[In, Out any](ctx context.Context, pool *pgxpool.Pool, job *pipeline.Job[In, Out], in In) (Job, *pipeline.RunDetail, error) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	defer tp.Shutdown(context.Background())
	reg, err := pipeline.NewRegistry(job)
	if err != nil {
		return Job{}, nil, err
	}
	w, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg, Queues: map[string]int{job.Queue(): 1},
		PollInterval: 5 * time.Millisecond, IdlePollMax: 20 * time.Millisecond, TracerProvider: tp,
		Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	if err != nil {
		return Job{}, nil, err
	}
	start := time.Now()
	r, err := job.Enqueue(ctx, pool, in)
	if err != nil {
		return Job{}, nil, err
	}
	if err := w.Start(ctx); err != nil {
		return Job{}, nil, err
	}
	defer w.Shutdown(context.Background())
	d, err := await(ctx, pool, r.ID)
	if err != nil {
		return Job{}, nil, err
	}
	f := Job{RunMs: ms(time.Since(start))}
	for _, s := range rec.Ended() {
		dur := ms(s.EndTime().Sub(s.StartTime()))
		switch name := s.Name(); {
		case name == "pipe.step plan":
			f.PlanMs += dur
		case strings.HasPrefix(name, "pipe.step "):
			f.StepMs += dur
			f.Steps++
		case strings.HasPrefix(name, "pipe.subject "):
			f.StatementMs += dur
		}
	}
	return f, d, nil
}

func await(ctx context.Context, pool *pgxpool.Pool, id string) (*pipeline.RunDetail, error) {
	admin := pipeline.NewAdmin(pool)
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	for {
		d, err := admin.Show(ctx, id)
		if err != nil {
			return nil, err
		}
		if !d.State.Live() {
			if d.State != "done" {
				return d, fmt.Errorf("the run ended %s: %s", d.State, lastError(d))
			}
			return d, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("the run did not settle within 5 minutes")
		case <-time.After(5 * time.Millisecond):
		}
	}
}

func lastError(d *pipeline.RunDetail) string {
	if d.LastError == nil {
		return "no error recorded"
	}
	return d.LastError.Code + ": " + d.LastError.Message
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
