package pipecli_test

import (
	"context"
	"testing"

	"github.com/pipekit/pipe/outbox"
)

// pipe outbox status shows each stream's waiting rows, as text and JSON;
// retry releases a stream's dead row and the one held behind it, and says
// so when there is nothing to release; prune
// keeps what is not yet published.
func TestOutboxStatusRetryPrune(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	if got := b.pipe(t, "outbox", "status"); got.stdout != "no outbox rows\n" {
		t.Fatalf("status of an empty outbox printed %q", got.stdout)
	}
	if _, err := outbox.StageMany(ctx, b.pool, []outbox.Message{{Stream: "orders"}, {Stream: "orders"}, {Stream: "mail"}}); err != nil {
		t.Fatal(err)
	}
	// The relay's verdicts, as a broker refusal leaves them: a dead row and
	// one held behind it.
	if _, err := b.pool.Exec(ctx, `update pipe.outbox set fault = case when id = 1 then 'dead' else 'held' end where stream = 'orders'`); err != nil {
		t.Fatal(err)
	}
	st := b.pipe(t, "outbox", "status")
	wantOK(t, st)
	if !hasRow(st.stdout, "STREAM", "LAG", "ROWS", "LAG", "OLDEST", "UNPUBLISHED", "PUBLISHED/S", "DEAD", "HELD", "RELEASED") ||
		!hasRow(st.stdout, "orders", "0", "0.0s", "-", "0.0", "1", "1", "0") {
		t.Fatalf("status:\n%s", st.stdout)
	}
	got := decode[[]outbox.StreamStatus](t, b.pipe(t, "outbox", "status", "--json").stdout)
	if len(got) != 2 || got[0].Stream != "mail" || got[0].LagRows != 1 || got[0].OldestUnpublished == nil || got[1].Dead != 1 {
		t.Fatalf("status --json = %+v", got)
	}
	retry := b.pipe(t, "outbox", "retry", "orders")
	wantOK(t, retry)
	if retry.stdout != "released 2 row(s)\n" {
		t.Fatalf("retry printed %q", retry.stdout)
	}
	// A second retry, or a mistyped stream, releases nothing and says why.
	again := b.pipe(t, "outbox", "retry", "ordres")
	wantOK(t, again)
	if again.stdout != "released 0 row(s): the stream has no dead or held messages (pipe outbox status shows each stream's)\n" {
		t.Fatalf("a retry of nothing printed %q", again.stdout)
	}
	prune := b.pipe(t, "outbox", "prune", "--retain", "1s")
	wantOK(t, prune)
	if prune.stdout != "pruned 0 published row(s)\n" {
		t.Fatalf("prune printed %q", prune.stdout)
	}
}
