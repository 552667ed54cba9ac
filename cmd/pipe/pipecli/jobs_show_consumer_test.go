package pipecli_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/consumer"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// consumerShow is `pipe jobs show --json` of a consumer's run.
type consumerShow struct {
	pipeline.RunDetail
	Consumer *consumer.Status `json:"consumer"`
}

// `pipe jobs show` reports a consumer's run with its key, the time of its
// last batch and its lag, in text and under "consumer" with --json.
func TestJobsShowReportsAConsumer(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ch := make(chan int, 7)
	for i := 1; i <= 7; i++ {
		ch <- i
	}
	c := consumer.MustNew(consumer.Options[int, int]{
		Name:   "cli.consumer",
		Keys:   func(context.Context, pgx.Tx) ([]string, error) { return []string{"acct-1"}, nil },
		Open:   func(context.Context, string, int) (consumer.Feed[int], error) { return consumer.FromChan(ch), nil },
		Handle: func(_ context.Context, _ pgx.Tx, _ string, items []int) (int, error) { return items[len(items)-1], nil },
		Cursor: consumer.StoredCursor[int](),
		Lag:    func(_ context.Context, _ pgx.Tx, _ string, cursor int) (int64, error) { return int64(10 - cursor), nil },
	})
	res, err := c.Enqueue(t.Context(), b.pool, "acct-1")
	if err != nil {
		t.Fatal(err)
	}
	fixtures.StartWorker(t, b.pool, c.Jobs()...)
	var got consumerShow
	deadline := time.Now().Add(20 * time.Second)
	for {
		show := b.pipe(t, "jobs", "show", res.ID, "--json")
		wantOK(t, show)
		got = decode[consumerShow](t, show.stdout)
		if s := got.Consumer; s != nil && s.Lag != nil && *s.Lag == 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("show --json after 20s:\n%s", show.stdout)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if s := got.Consumer; got.ID != res.ID || got.State != "running" || s.Key != "acct-1" || s.Items != 7 || s.Batches != 1 || s.LastBatchAt == nil {
		t.Fatalf("show --json = %+v, consumer %+v", got, got.Consumer)
	}
	text := b.pipe(t, "jobs", "show", res.ID)
	wantOK(t, text)
	for _, row := range []string{"\nconsumer\n", "  key ", "acct-1", "  last batch ", "  lag  ", " 3\n", "  items ", " 7\n"} {
		if !strings.Contains(text.stdout, row) {
			t.Fatalf("show lacks %q:\n%s", row, text.stdout)
		}
	}
	demo := b.pipe(t, "jobs", "show", b.enqueueDemo(t, "grace"))
	if strings.Contains(demo.stdout, "\nconsumer\n") {
		t.Fatalf("a run that is not a consumer's shows a consumer section:\n%s", demo.stdout)
	}
}
