package outbox_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/outbox"
)

// On a ByStream stream a poison message holds every later message of the
// stream; Status counts them (dead, held) apart from the lag of a stream no
// relay publishes, and Prune deletes only published rows past retention.
func TestStatusPoisonHoldsTheStreamAndPrune(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := context.Background()
	js := newJSStream(t, sharedNATS(t), 1024)
	relay := outbox.MustNew(outbox.Options{Streams: []outbox.Stream{{Name: "a"}}, Publisher: js.publisher(t)})
	if _, err := relay.Arm(ctx, pool); err != nil {
		t.Fatal(err)
	}
	fixtures.StartWorker(t, pool, relay.Jobs()...)
	var ms []outbox.Message
	for i := range 10 {
		size := 10
		if i == 4 {
			size = 2000
		}
		ms = append(ms, outbox.Message{Stream: "a", Key: fmt.Sprint(i % 2), Payload: bytes.Repeat([]byte("x"), size)})
		ms = append(ms, outbox.Message{Stream: "b", Payload: []byte("waits")})
	}
	if _, err := outbox.StageMany(ctx, pool, ms); err != nil {
		t.Fatal(err)
	}
	var st map[string]outbox.StreamStatus
	waitFor(t, "the poison dead and the rest of stream a held", func() bool {
		st = status(t, pool)
		return st["a"].Dead == 1 && st["a"].Held == 5
	})
	a, b := st["a"], st["b"]
	if a.LagRows != 0 || a.PublishedPerSecond != 4.0/60 || b.LagRows != 10 || b.OldestUnpublished == nil || b.LagSeconds < 0 || b.Dead != 0 {
		t.Fatalf("status a %+v, b %+v; want a: 4 published, nothing waiting; b: 10 waiting", a, b)
	}
	if got := len(js.messages(t)); got != 4 {
		t.Fatalf("JetStream holds %d messages; want the 4 before the poison", got)
	}
	if _, err := pool.Exec(ctx, `update pipe.outbox_batches set published_at = published_at - interval '2 days'`); err != nil {
		t.Fatal(err)
	}
	n, err := outbox.Prune(ctx, pool, 0)
	if err != nil || n != 4 {
		t.Fatalf("Prune deleted %d rows (%v); want the 4 published two days ago", n, err)
	}
	if left := count(t, pool, `select count(*) from pipe.outbox`); left != 16 {
		t.Fatalf("%d rows left; want the 16 unpublished", left)
	}
	if n := count(t, pool, `select count(*) from pipe.outbox_batches`); n != 1 {
		t.Fatalf("%d batches recorded after the prune; want stream a's newest alone", n)
	}
	if st = status(t, pool); st["a"].LagRows != 0 || st["a"].Dead != 1 || st["a"].Held != 5 || st["b"].LagRows != 10 {
		t.Fatalf("status after the prune a %+v, b %+v; want a: nothing waiting, 1 dead, 5 held; b: 10 waiting", st["a"], st["b"])
	}
}

func status(t *testing.T, pool *pgxpool.Pool) map[string]outbox.StreamStatus {
	t.Helper()
	ss, err := outbox.Status(context.Background(), pool)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]outbox.StreamStatus{}
	for _, s := range ss {
		out[s.Stream] = s
	}
	return out
}
