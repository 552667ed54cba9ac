package consumer_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/consumer"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// failOnce is a Handle that fails key "a"'s first batch with a terminal
// code, so that its run dies, and handles everything else.
func failOnce() func(ctx context.Context, tx pgx.Tx, key string, items []item) (int64, error) {
	var failed atomic.Bool
	return func(ctx context.Context, tx pgx.Tx, key string, items []item) (int64, error) {
		if key == "a" && failed.CompareAndSwap(false, true) {
			return 0, errcode.New(errcode.ConsumerFeedInvalid, "the vendor sent garbage")
		}
		return handleEffects(ctx, tx, key, items)
	}
}

// Arming asks Keys and enqueues each: a key whose run died gets a fresh run,
// one still running is a no-op (deduped onto its run).
func TestArmRestartsADeadKeyAndLeavesARunningOne(t *testing.T) {
	pool := setup(t)
	fs := &feeds{newFeed: func(key string, cursor int64) *seqFeed { return newSeqFeed(cursor, 5, key == "a") }}
	o := options("armed", fs, "a", "b", "a")
	o.Handle = failOnce()
	c := consumer.MustNew(o)
	ctx := context.Background()
	for _, k := range []string{"a", "b"} {
		if _, err := c.Enqueue(ctx, pool, k); err != nil {
			t.Fatal(err)
		}
	}
	fixtures.StartWorker(t, pool, c.Jobs()...)
	dead := fixtures.AwaitSettled(t, pool, runOf(t, pool, "armed", "a").ID)
	if dead.State != "dead" {
		t.Fatalf("a's first run is %s", dead.State)
	}
	awaitCursor(t, pool, "armed", "b", 5)
	running := runOf(t, pool, "armed", "b")
	res, err := c.Arm(ctx, pool)
	if err != nil {
		t.Fatal(err)
	}
	arm := fixtures.AwaitSettled(t, pool, res.ID)
	var out consumer.ArmResult
	if err := json.Unmarshal(arm.Result, &out); err != nil || out != (consumer.ArmResult{Keys: 2, Started: 1, Running: 1}) {
		t.Fatalf("arm %s: %s (%v); want 2 keys, 1 started, 1 running", arm.State, arm.Result, err)
	}
	again := runOf(t, pool, "armed", "a")
	if again.ID == dead.ID {
		t.Fatal("the arm did not start a fresh run of the dead key")
	}
	if d := fixtures.AwaitSettled(t, pool, again.ID); d.State != "done" {
		t.Fatalf("a's fresh run %s: %s", d.State, lastCode(d))
	}
	if n, distinct, top := effectsOf(t, pool, "a"); n != 5 || distinct != 5 || top != 5 {
		t.Fatalf("a's effects %d (%d distinct, top %d)", n, distinct, top)
	}
	if b := runOf(t, pool, "armed", "b"); b.ID != running.ID || b.State != "running" {
		t.Fatalf("b is %s in run %s; want its one run still running", b.State, b.ID)
	}
}

// The supervisor task fires the arm job at the rearm: a dead key is back
// within a minute, without anyone enqueueing it.
func TestSupervisorRearmsADeadKey(t *testing.T) {
	pool := setup(t)
	clock := fixtures.FreezeClock(t, pool, time.Date(2026, 3, 1, 10, 0, 50, 0, time.UTC))
	fs := &feeds{newFeed: func(_ string, cursor int64) *seqFeed { return newSeqFeed(cursor, 5, true) }}
	o := options("supervised", fs, "a")
	o.Handle = failOnce()
	c := consumer.MustNew(o)
	res, err := c.Enqueue(context.Background(), pool, "a")
	if err != nil {
		t.Fatal(err)
	}
	fixtures.StartWorker(t, pool, c.Jobs()...)
	if d := fixtures.AwaitSettled(t, pool, res.ID); d.State != "dead" {
		t.Fatalf("the first run is %s", d.State)
	}
	s, err := pipeline.NewScheduler(pool, pipeline.SchedulerConfig{Tasks: []*pipeline.Task{c.Supervisor()},
		Clock: clock, Tick: time.Second, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Stop(context.Background()) })
	flowUntilArmed(t, pool, clock, "supervised.arm")
	deadline := time.Now().Add(30 * time.Second)
	for {
		if d := runOf(t, pool, "supervised", "a"); d.ID != res.ID && d.State == "done" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the dead key was not re-armed and run within 30s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n, distinct, _ := effectsOf(t, pool, "a"); n != 5 || distinct != 5 {
		t.Fatalf("%d effects (%d distinct) after the re-arm", n, distinct)
	}
}

// flowUntilArmed moves the frozen clock a second at a time until the arm
// job has been enqueued: a scheduler acts on its ticks, and a frozen clock
// gives none.
func flowUntilArmed(t *testing.T, pool *pgxpool.Pool, clock *fixtures.FrozenClock, arm string) {
	t.Helper()
	for range 90 {
		var n int
		if err := pool.QueryRow(context.Background(), `select count(*) from pipe.jobs where name = $1`, arm).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return
		}
		clock.Advance(t, time.Second)
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s was not enqueued within 90 s of the frozen clock", arm)
}

// A consumer's Tenant scopes each key's run: the arm enqueues every key
// under its own tenant, and one live row per key and tenant holds.
func TestTenantIsDeclaredPerKey(t *testing.T) {
	pool := setup(t)
	fs := &feeds{newFeed: func(_ string, cursor int64) *seqFeed { return newSeqFeed(cursor, 3, true) }}
	o := options("tenanted", fs, "org-1", "org-2")
	o.Tenant = func(key string) string { return "tenant-" + key }
	c := consumer.MustNew(o)
	res, err := c.Arm(context.Background(), pool)
	if err != nil {
		t.Fatal(err)
	}
	fixtures.StartWorker(t, pool, c.Jobs()...)
	if d := fixtures.AwaitSettled(t, pool, res.ID); d.State != "done" || d.Tenant != "" {
		t.Fatalf("arm %s under tenant %q; want done under none", d.State, d.Tenant)
	}
	for _, k := range []string{"org-1", "org-2"} {
		d := fixtures.AwaitSettled(t, pool, runOf(t, pool, "tenanted", k).ID)
		if d.State != "done" || d.Tenant != "tenant-"+k || d.IdempotencyKey != "consumer:tenanted:"+k {
			t.Fatalf("key %s: %s, tenant %q, key %q", k, d.State, d.Tenant, d.IdempotencyKey)
		}
	}
}
