package pipeline_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

type keyed struct {
	K       string `json:"k"`
	Account string `json:"account"`
}

// activeBody marks its key active in a table with a unique key for 20 ms:
// two bodies of one key at once is a unique violation, counted.
func activeBody(pool *pgxpool.Pool, overlaps *atomic.Int32) pipeline.Body[keyed, int] {
	return func(ctx context.Context, run *pipeline.Run[keyed]) (int, error) {
		if _, err := pool.Exec(ctx, `insert into active (account) values ($1)`, run.Input.Account); err != nil {
			overlaps.Add(1)
			return 0, nil
		}
		time.Sleep(20 * time.Millisecond)
		_, err := pool.Exec(ctx, `delete from active where account = $1`, run.Input.Account)
		return 1, err
	}
}

func TestKeyedConcurrencyOfOneHoldsAcrossWorkers(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	if _, err := pool.Exec(ctx, `create table active (account text primary key)`); err != nil {
		t.Fatal(err)
	}
	var overlaps atomic.Int32
	opts := pipeline.JobOptions[keyed, int]{Concurrency: &pipeline.Concurrency[keyed]{Limit: 1, Key: func(in keyed) string { return in.Account }}}
	j := pipeline.MustJob("per-account", func(in keyed) string { return in.K }, activeBody(pool, &overlaps), opts)
	var ids []string
	for i := range 8 {
		res, err := j.Enqueue(ctx, pool, keyed{K: fmt.Sprint(i), Account: "acct-1"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.ID)
	}
	a := startWorker(t, pool, pipeline.WorkerConfig{ID: "a"}, j)
	b := startWorker(t, pool, pipeline.WorkerConfig{ID: "b"}, j)
	for _, id := range ids {
		if d := awaitState(t, pool, id, "done", "dead", "failed"); d.State != "done" || d.Attempt != 1 || d.ConcurrencyKey != "acct-1" {
			t.Fatalf("run %s: %s attempt %d, concurrency key %q; a busy key must defer without spending attempts", id, d.State, d.Attempt, d.ConcurrencyKey)
		}
	}
	if overlaps.Load() != 0 {
		t.Fatalf("%d times two bodies of one key ran at once", overlaps.Load())
	}
	if a.Stats().Completed.Load()+b.Stats().Completed.Load() != 8 {
		t.Fatalf("completed %d + %d", a.Stats().Completed.Load(), b.Stats().Completed.Load())
	}
	if m := j.Describe().Concurrency; m == nil || m.Limit != 1 || !m.Keyed || m.WhenBusy != "wait" {
		t.Fatalf("manifest concurrency %+v", m)
	}
}

func TestWhenBusyFailRefusesTheSecondRun(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	started, release := make(chan struct{}, 1), make(chan struct{})
	j := pipeline.MustJob("busy-fail", func(in keyed) string { return in.K }, func(ctx context.Context, run *pipeline.Run[keyed]) (int, error) {
		started <- struct{}{}
		<-release
		return 1, nil
	}, pipeline.JobOptions[keyed, int]{Concurrency: &pipeline.Concurrency[keyed]{Limit: 1, Key: func(in keyed) string { return in.Account }, WhenBusy: pipeline.Fail}})
	startWorker(t, pool, pipeline.WorkerConfig{}, j)
	first, _ := j.Enqueue(ctx, pool, keyed{K: "1", Account: "a"})
	<-started
	second, _ := j.Enqueue(ctx, pool, keyed{K: "2", Account: "a"})
	d := awaitState(t, pool, second.ID, "failed")
	close(release)
	if d.LastError.Code != string(errcode.JobKeyBusy) || stepCount(d) != 0 {
		t.Fatalf("refused run: %+v", d.LastError)
	}
	awaitState(t, pool, first.ID, "done")
}

func stepCount(d *pipeline.RunDetail) int { return len(d.Steps) }

func TestADeadWorkersSlotIsFreedByItsTTL(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	started, release := make(chan struct{}, 1), make(chan struct{})
	defer close(release)
	opts := pipeline.JobOptions[keyed, int]{Concurrency: &pipeline.Concurrency[keyed]{Limit: 1}}
	hang := pipeline.MustJob("ttl", func(in keyed) string { return in.K }, func(ctx context.Context, run *pipeline.Run[keyed]) (int, error) {
		started <- struct{}{}
		<-release
		return 0, nil
	}, opts)
	quick := pipeline.MustJob("ttl", func(in keyed) string { return in.K }, func(ctx context.Context, run *pipeline.Run[keyed]) (int, error) {
		return 2, nil
	}, opts)
	// Worker a holds the only slot and never renews it, as if it had died.
	startWorker(t, pool, pipeline.WorkerConfig{ID: "a", Queues: map[string]int{"default": 1}, Lease: 300 * time.Millisecond, Heartbeat: time.Hour}, hang)
	first, _ := hang.Enqueue(ctx, pool, keyed{K: "1"})
	<-started
	second, _ := hang.Enqueue(ctx, pool, keyed{K: "2"})
	startWorker(t, pool, pipeline.WorkerConfig{ID: "b"}, quick)
	for _, id := range []string{second.ID, first.ID} {
		if d := awaitState(t, pool, id, "done"); string(d.Result) != "2" {
			t.Fatalf("run %s result %s", id, d.Result)
		}
	}
}

func TestConcurrencyKeyIsCheckedAtEnqueue(t *testing.T) {
	j := pipeline.MustJob("bad-ckey", func(in keyed) string { return in.K }, func(context.Context, *pipeline.Run[keyed]) (int, error) { return 0, nil },
		pipeline.JobOptions[keyed, int]{Concurrency: &pipeline.Concurrency[keyed]{Limit: 1, Key: func(in keyed) string { return in.Account }}})
	db := fixtures.DB(t)
	_, err := j.Enqueue(context.Background(), db, keyed{K: "1"})
	if !errors.Is(err, errcode.JobDeclarationInvalid) {
		t.Fatalf("err = %v", err)
	}
	// The limit is 200 characters, not bytes; a key PostgreSQL would not
	// keep is refused before the statement.
	for i, c := range []struct {
		key string
		ok  bool
	}{
		{strings.Repeat("ü", 200), true}, // 400 bytes
		{strings.Repeat("ü", 201), false},
		{"acct\x00", false},
		{"acct\xff", false},
	} {
		_, err := j.Enqueue(context.Background(), db, keyed{K: fmt.Sprint("key-", i), Account: c.key})
		if got := err == nil; got != c.ok || (err != nil && !errors.Is(err, errcode.JobDeclarationInvalid)) {
			t.Fatalf("a concurrency key of %d runes, %d bytes: %v", utf8.RuneCountInString(c.key), len(c.key), err)
		}
	}
	if _, err := pipeline.NewJob("zero-cap", keyK, noop, pipeline.JobOptions[noInput, struct{}]{Concurrency: &pipeline.Concurrency[noInput]{}}); !errors.Is(err, errcode.JobDeclarationInvalid) {
		t.Fatalf("a cap of 0: %v", err)
	}
}

func TestTenantIsCheckedAtEnqueueAndAtRun(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	var ran atomic.Int32
	j := pipeline.MustJob("tenancy", func(in keyed) string { return in.K }, func(context.Context, *pipeline.Run[keyed]) (int, error) {
		ran.Add(1)
		return 0, nil
	}, pipeline.JobOptions[keyed, int]{Tenant: func(in keyed) string { return in.Account }, Retry: fastRetry})
	if _, err := j.Enqueue(ctx, pool, keyed{K: "1", Account: "org-a"}, pipeline.EnqueueOptions{Tenant: "org-b"}); !errors.Is(err, errcode.JobTenantMismatch) {
		t.Fatalf("enqueue: %v", err)
	}
	if n := countJobs(t, pool, "tenancy"); n != 0 {
		t.Fatalf("a refused enqueue queued %d rows", n)
	}
	res, _ := j.Enqueue(ctx, pool, keyed{K: "1", Account: "org-a"}, pipeline.EnqueueOptions{Tenant: "org-a"})
	if _, err := fixtures.Owner(t, pool).Exec(ctx, `update pipe.jobs set tenant = 'org-b' where id = $1`, res.ID); err != nil {
		t.Fatal(err)
	}
	startWorker(t, pool, pipeline.WorkerConfig{}, j)
	d := awaitState(t, pool, res.ID, "dead")
	if d.LastError.Code != string(errcode.JobTenantMismatch) || ran.Load() != 0 || d.Attempt != 1 {
		t.Fatalf("%+v ran %d attempt %d", d.LastError, ran.Load(), d.Attempt)
	}
}

func TestSharedBudgetDefersWithTheAttemptUncounted(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	for i := range 2 {
		if err := pipeline.SpendBudget(ctx, pool, "mail-vendor", 2, time.Hour); err != nil {
			t.Fatalf("spend %d: %v", i, err)
		}
	}
	err := pipeline.SpendBudget(ctx, pool, "mail-vendor", 2, time.Hour)
	if s, ok := errcode.RetryAfterSeconds(err); !errors.Is(err, errcode.RateLimited) || !ok || s < 3590 || s > 3600 {
		t.Fatalf("third spend: %v (retry after %d)", err, s)
	}
	var ran atomic.Int32
	j := pipeline.MustJob("budgeted", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
		if err := pipeline.SpendBudget(ctx, pool, "mail-vendor", 2, time.Hour); err != nil {
			return 0, err
		}
		ran.Add(1)
		return 1, nil
	}, pipeline.JobOptions[noInput, int]{Retry: &pipeline.Retry{Attempts: 1, MaxDelay: 10 * time.Minute}})
	w := startWorker(t, pool, pipeline.WorkerConfig{}, j)
	res, _ := j.Enqueue(ctx, pool, noInput{K: "a"})
	awaitStat(t, w.Stats().Deferred.Load, 1)
	d := awaitState(t, pool, res.ID, "ready")
	if d.Attempt != 0 || ran.Load() != 0 || time.Until(d.RunAt) < 9*time.Minute {
		t.Fatalf("deferred row: attempt %d ran %d next %v", d.Attempt, ran.Load(), time.Until(d.RunAt))
	}
}

func TestPerTenantStartRateDefers(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	j := pipeline.MustJob("tenant-rate", func(in keyed) string { return in.K }, func(context.Context, *pipeline.Run[keyed]) (int, error) { return 1, nil },
		pipeline.JobOptions[keyed, int]{Tenant: func(in keyed) string { return in.Account }})
	a, _ := j.Enqueue(ctx, pool, keyed{K: "1", Account: "org-a"})
	b, _ := j.Enqueue(ctx, pool, keyed{K: "2", Account: "org-a"})
	c, _ := j.Enqueue(ctx, pool, keyed{K: "3", Account: "org-b"})
	w := startWorker(t, pool, pipeline.WorkerConfig{RatePerTenant: &pipeline.RateLimit{Starts: 1, Window: time.Hour}}, j)
	awaitState(t, pool, c.ID, "done")
	awaitStat(t, func() int64 { return w.Stats().Completed.Load() + w.Stats().Deferred.Load() }, 3)
	da, db := awaitState(t, pool, a.ID, "done", "ready"), awaitState(t, pool, b.ID, "done", "ready")
	if (da.State == "done") == (db.State == "done") {
		t.Fatalf("org-a: %s and %s; want exactly one started this hour", da.State, db.State)
	}
}

// MaxInFlightPerTenant lets one tenant run at most that many bodies at once
// in the process while another tenant's run goes past them; the runs held
// back are deferred with their attempts uncounted and all end done.
func TestMaxInFlightPerTenantHoldsOneTenantBack(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	var mu sync.Mutex
	running, most := map[string]int{}, map[string]int{}
	bStarted := make(chan struct{})
	release := make(chan struct{})
	j := pipeline.MustJob("tenant-cap", func(in keyed) string { return in.K }, func(ctx context.Context, run *pipeline.Run[keyed]) (int, error) {
		mu.Lock()
		running[run.Input.Account]++
		most[run.Input.Account] = max(most[run.Input.Account], running[run.Input.Account])
		mu.Unlock()
		if run.Input.Account == "org-b" {
			close(bStarted)
		} else {
			<-release
		}
		mu.Lock()
		running[run.Input.Account]--
		mu.Unlock()
		return run.Attempt, nil
	}, pipeline.JobOptions[keyed, int]{Tenant: func(in keyed) string { return in.Account }})
	var ids []string
	for i := range 4 {
		res, err := j.Enqueue(ctx, pool, keyed{K: fmt.Sprint("a", i), Account: "org-a"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.ID)
	}
	startWorker(t, pool, pipeline.WorkerConfig{MaxInFlightPerTenant: 2, BusyDelay: 20 * time.Millisecond}, j)
	// org-a holds its two; org-b's run, queued after, runs beside them.
	b, err := j.Enqueue(ctx, pool, keyed{K: "b", Account: "org-b"})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-bStarted:
	case <-time.After(20 * time.Second):
		t.Fatal("org-b's run did not start while org-a held its cap")
	}
	time.Sleep(100 * time.Millisecond) // org-a's deferred runs come round again meanwhile
	close(release)
	for _, id := range append(ids, b.ID) {
		if d := awaitState(t, pool, id, "done", "dead", "failed"); d.State != "done" || string(d.Result) != "1" {
			t.Fatalf("run %s: %s with result %s; want done on its first attempt", id, d.State, d.Result)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if most["org-a"] != 2 {
		t.Fatalf("org-a ran %d bodies at once at most; want its cap of 2", most["org-a"])
	}
	reg, err := pipeline.NewRegistry(j)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg, MaxInFlightPerTenant: -1}); !errors.Is(err, errcode.ConfigInvalid) {
		t.Fatalf("a negative MaxInFlightPerTenant: %v", err)
	}
}
