package pipeline_test

import (
	"context"
	"sort"
	"testing"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

func TestSpansPerRunAndStepJoinTheEnqueuingTrace(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	j := pipeline.MustJob("traced", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
		if _, err := pipeline.Step(ctx, "a", func(context.Context) (int, error) { return 1, nil }); err != nil {
			return 0, err
		}
		return pipeline.Step(ctx, "b", func(context.Context) (int, error) { return 2, nil })
	})
	startWorker(t, pool, pipeline.WorkerConfig{TracerProvider: tp}, j)
	reqCtx, req := tp.Tracer("app").Start(ctx, "POST /signup")
	res, err := j.Enqueue(reqCtx, pool, noInput{K: "a"})
	req.End()
	if err != nil {
		t.Fatal(err)
	}
	awaitState(t, pool, res.ID, "done")
	awaitStat(t, func() int64 { return int64(len(rec.Ended())) }, 4)
	byName := map[string]sdktrace.ReadOnlySpan{}
	var names []string
	for _, s := range rec.Ended() {
		byName[s.Name()] = s
		names = append(names, s.Name())
	}
	sort.Strings(names)
	job, stepA, stepB := byName["pipe.job traced"], byName["pipe.step a"], byName["pipe.step b"]
	if job == nil || stepA == nil || stepB == nil {
		t.Fatalf("spans %v", names)
	}
	if job.SpanContext().TraceID() != req.SpanContext().TraceID() || job.Parent().SpanID() != req.SpanContext().SpanID() {
		t.Fatal("the run's span is not in the enqueuing trace")
	}
	if stepA.Parent().SpanID() != job.SpanContext().SpanID() || stepB.Parent().SpanID() != job.SpanContext().SpanID() {
		t.Fatal("step spans are not children of the run's span")
	}
}
