package pipeline_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// syncBuffer is a log sink the worker's goroutines may write together.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A sensitive job's input is stored and handed to its body whole, and shown
// as [redacted] by Show; the worker's logs and spans never carry it. A job
// that did not declare it shows its input.
func TestASensitiveInputIsStoredButShownRedacted(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := context.Background()
	const secret = "card-4111-1111-1111-1111"
	var seen sync.Map
	body := func(ctx context.Context, r *pipeline.Run[noInput]) (struct{}, error) {
		seen.Store(r.Input.K, true)
		return struct{}{}, fmt.Errorf("refused")
	}
	hidden := pipeline.MustJob("sensitive", keyK, body, pipeline.JobOptions[noInput, struct{}]{
		Sensitive: true, Retry: &pipeline.Retry{Attempts: 1}})
	shown := pipeline.MustJob("plain", keyK, body, pipeline.JobOptions[noInput, struct{}]{Retry: &pipeline.Retry{Attempts: 1}})
	logs := &syncBuffer{}
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	startWorker(t, pool, pipeline.WorkerConfig{
		Logger:         slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		TracerProvider: tp,
	}, hidden, shown)

	h, err := hidden.Enqueue(ctx, pool, noInput{K: secret})
	if err != nil {
		t.Fatal(err)
	}
	s, err := shown.Enqueue(ctx, pool, noInput{K: "plain-value"})
	if err != nil {
		t.Fatal(err)
	}
	d := awaitState(t, pool, h.ID, pipeline.StateDead)
	awaitState(t, pool, s.ID, pipeline.StateDead)
	if _, ok := seen.Load(secret); !ok {
		t.Fatal("the body did not receive the sensitive input")
	}
	if string(d.Input) != `"[redacted]"` {
		t.Fatalf("show printed %s, want \"[redacted]\"", d.Input)
	}
	if !hidden.Describe().Sensitive || shown.Describe().Sensitive {
		t.Fatal("the manifest does not say which job is sensitive")
	}
	p, _ := pipeline.NewAdmin(pool).Show(ctx, s.ID)
	if !strings.Contains(string(p.Input), "plain-value") {
		t.Fatalf("a plain job's input shows as %s", p.Input)
	}
	if err := tp.ForceFlush(ctx); err != nil {
		t.Fatal(err)
	}
	all, _ := json.Marshal(spans.GetSpans().Snapshots())
	if strings.Contains(logs.String(), secret) || strings.Contains(string(all), secret) {
		t.Fatal("the sensitive input reached the logs or the spans")
	}
	if len(spans.GetSpans()) == 0 || logs.String() == "" {
		t.Fatal("no spans or logs were recorded: the test proves nothing")
	}
}
