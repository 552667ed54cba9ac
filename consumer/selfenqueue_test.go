package consumer_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/consumer"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
)

// Handle enqueueing its own consumer is X_CONSUMER_SELF_ENQUEUE: the
// enqueue answers it, and the batch fails with it even when Handle swallows
// the error. Terminal: one attempt, nothing committed.
func TestHandleEnqueueingItsOwnConsumerIsRefused(t *testing.T) {
	pool := setup(t)
	fs := &feeds{newFeed: func(_ string, cursor int64) *seqFeed { return newSeqFeed(cursor, 20, true) }}
	o := options("selfish", fs, "k")
	var c *consumer.Consumer[item, int64]
	got := make(chan error, 1)
	o.Handle = func(ctx context.Context, tx pgx.Tx, key string, items []item) (int64, error) {
		_, err := c.Enqueue(ctx, tx, "another-key")
		got <- err
		return handleEffects(ctx, tx, key, items) // the refusal swallowed
	}
	c = consumer.MustNew(o)
	assertRefused(t, pool, c, got)
}

// Open arming its own consumer is refused the same way.
func TestOpenArmingItsOwnConsumerIsRefused(t *testing.T) {
	pool := setup(t)
	fs := &feeds{newFeed: func(_ string, cursor int64) *seqFeed { return newSeqFeed(cursor, 20, true) }}
	o := options("selfish-open", fs, "k")
	var c *consumer.Consumer[item, int64]
	got := make(chan error, 1)
	o.Open = func(ctx context.Context, key string, cursor int64) (consumer.Feed[item], error) {
		_, err := c.Arm(ctx, pool)
		got <- err
		return fs.open(ctx, key, cursor)
	}
	c = consumer.MustNew(o)
	assertRefused(t, pool, c, got)
}

func assertRefused(t *testing.T, pool *pgxpool.Pool, c *consumer.Consumer[item, int64], got chan error) {
	t.Helper()
	res, err := c.Enqueue(context.Background(), pool, "k")
	if err != nil {
		t.Fatal(err)
	}
	fixtures.StartWorker(t, pool, c.Jobs()...)
	if err := <-got; !errors.Is(err, errcode.ConsumerSelfEnqueue) {
		t.Fatalf("the self-enqueue answered %v; want X_CONSUMER_SELF_ENQUEUE", err)
	}
	d := fixtures.AwaitSettled(t, pool, res.ID)
	if d.State != "dead" || d.Attempt != 1 || lastCode(d) != string(errcode.ConsumerSelfEnqueue) {
		t.Fatalf("%s on attempt %d with %q; want dead at once with X_CONSUMER_SELF_ENQUEUE", d.State, d.Attempt, lastCode(d))
	}
	var jobs int
	if err := pool.QueryRow(context.Background(), `select count(*) from pipe.jobs`).Scan(&jobs); err != nil || jobs != 1 {
		t.Fatalf("%d jobs (%v); the refused enqueue queued something", jobs, err)
	}
	if n, _, _ := effectsOf(t, pool, "k"); n != 0 || cursorOf(t, pool, c.Name(), "k") != 0 {
		t.Fatalf("%d effects committed by a refused batch", n)
	}
}

// Outside its own run — from a request, another consumer — the enqueue is
// an ordinary one.
func TestEnqueueFromAnotherConsumerIsAllowed(t *testing.T) {
	pool := setup(t)
	fs := &feeds{newFeed: func(_ string, cursor int64) *seqFeed { return newSeqFeed(cursor, 5, true) }}
	target := consumer.MustNew(options("target", fs, "t"))
	o := options("source", fs, "s")
	o.Handle = func(ctx context.Context, tx pgx.Tx, key string, items []item) (int64, error) {
		if _, err := target.Enqueue(ctx, tx, "t"); err != nil {
			return 0, err
		}
		return handleEffects(ctx, tx, key, items)
	}
	source := consumer.MustNew(o)
	res, err := source.Enqueue(context.Background(), pool, "s")
	if err != nil {
		t.Fatal(err)
	}
	fixtures.StartWorker(t, pool, append(source.Jobs(), target.Jobs()...)...)
	if d := fixtures.AwaitSettled(t, pool, res.ID); d.State != "done" {
		t.Fatalf("source %s: %s", d.State, lastCode(d))
	}
	if d := fixtures.AwaitSettled(t, pool, runOf(t, pool, "target", "t").ID); d.State != "done" {
		t.Fatalf("target %s: %s", d.State, lastCode(d))
	}
}
