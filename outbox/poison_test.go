package outbox_test

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/outbox"
)

// A message the broker refuses for good (over the stream's max message
// size) is dead-lettered; on a ByKey stream only its key's later messages
// wait, the other keys go on. Once the stream takes it and the operator
// retries, the key's messages are published in their order.
func TestAPoisonMessageHoldsOnlyItsKey(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := context.Background()
	js := newJSStream(t, sharedNATS(t), 1024)
	relay := outbox.MustNew(outbox.Options{Streams: []outbox.Stream{{Name: "orders", Ordering: outbox.ByKey}}, Publisher: js.publisher(t)})
	if _, err := relay.Arm(ctx, pool); err != nil {
		t.Fatal(err)
	}
	fixtures.StartWorker(t, pool, relay.Jobs()...)
	stage := func(key, body string, size int) {
		payload := append([]byte(body+" "), bytes.Repeat([]byte("x"), size)...)
		if _, err := outbox.Stage(ctx, pool, outbox.Message{Stream: "orders", Key: key, Headers: map[string]string{"key": key}, Payload: payload}); err != nil {
			t.Fatal(err)
		}
	}
	stage("a", "a1", 10)
	stage("a", "a2", 2000) // the poison
	for i := 1; i <= 3; i++ {
		stage("a", fmt.Sprintf("a%d", i+2), 10)
		stage("b", fmt.Sprintf("b%d", i), 10)
	}
	waitFor(t, "the poison dead and key a held", func() bool {
		return count(t, pool, `select count(*) from pipe.outbox where fault = 'dead'`) == 1 &&
			count(t, pool, `select count(*) from pipe.outbox where fault = 'held'`) == 3 &&
			count(t, pool, `select count(*) from pipe.outbox o where `+published) == 4
	})
	var code string
	if err := pool.QueryRow(ctx, `select error->>'code' from pipe.outbox where fault = 'dead'`).Scan(&code); err != nil || code != "X_OUTBOX_PUBLISH_REFUSED" {
		t.Fatalf("the dead row's code: %q (%v)", code, err)
	}
	if got := bodiesByKey(js.messages(t)); !slices.Equal(got["a"], []string{"a1"}) || !slices.Equal(got["b"], []string{"b1", "b2", "b3"}) {
		t.Fatalf("published before the retry: %v; want a1 alone of key a, and all of b", got)
	}

	if _, err := js.js.UpdateStream(ctx, jetstream.StreamConfig{Name: js.name, Subjects: []string{js.name + ".>"}, Storage: jetstream.FileStorage, MaxMsgSize: 4096, Duplicates: js.duplicates(t)}); err != nil {
		t.Fatal(err)
	}
	stage("b", "b4", 10)
	stage("a", "a6", 10) // in a batch of its own, after the poison's: held by the stream's faults
	waitFor(t, "a later message of key a held, b4 published", func() bool {
		return count(t, pool, `select count(*) from pipe.outbox where fault = 'held'`) == 4 &&
			count(t, pool, `select count(*) from pipe.outbox o where `+published) == 5
	})
	if n, err := outbox.Retry(ctx, pool, "orders"); err != nil || n != 5 {
		t.Fatalf("Retry released %d rows (%v); want the dead row and the 4 held", n, err)
	}
	stage("a", "a7", 10)
	t.Cleanup(func() {
		if t.Failed() {
			rows, _ := pool.Query(ctx, `select id, key, fault, `+published+` from pipe.outbox o order by id`)
			for rows.Next() {
				var id int64
				var key string
				var fault *string
				var pub bool
				_ = rows.Scan(&id, &key, &fault, &pub)
				f := "-"
				if fault != nil {
					f = *fault
				}
				t.Log(id, key, f, pub)
			}
			rows2, _ := pool.Query(ctx, `select name, state, last_error::text from pipe.jobs`)
			for rows2.Next() {
				var n, st string
				var le *string
				_ = rows2.Scan(&n, &st, &le)
				t.Log(n, st, le)
			}
		}
	})
	waitFor(t, "every message published after the retry", func() bool {
		return count(t, pool, `select count(*) from pipe.outbox o where not `+published) == 0
	})
	got := bodiesByKey(js.messages(t))
	if !slices.Equal(got["a"], []string{"a1", "a2", "a3", "a4", "a5", "a6", "a7"}) || !slices.Equal(got["b"], []string{"b1", "b2", "b3", "b4"}) {
		t.Fatalf("the broker's consumer read %v; want each key's messages once, in order", got)
	}
}

// bodiesByKey answers each key's message bodies (their first word) in
// stream order.
func bodiesByKey(ms []received) map[string][]string {
	out := map[string][]string{}
	for _, m := range ms {
		body, _, _ := bytes.Cut([]byte(m.body), []byte(" "))
		out[m.key] = append(out[m.key], string(body))
	}
	return out
}
