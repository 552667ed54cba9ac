package pipeline_test

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// schedClock is a Clock a test moves by hand. Advance fires (and forgets) the
// waits it passes, so awaitWaiters(n) after it returns once every woken
// scheduler has finished its pass and is waiting again.
type schedClock struct {
	mu      sync.Mutex
	now     time.Time
	waiters []schedWaiter
	changed chan struct{}
}

type schedWaiter struct {
	at time.Time
	ch chan time.Time
}

func newSchedClock(now time.Time) *schedClock {
	return &schedClock{now: now, changed: make(chan struct{})}
}

func (c *schedClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *schedClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	if d <= 0 {
		ch <- c.now
		return ch
	}
	c.waiters = append(c.waiters, schedWaiter{at: c.now.Add(d), ch: ch})
	c.signal()
	return ch
}

// Advance moves the clock by d and fires the waits that fall due.
func (c *schedClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.waiters[:0]
	for _, w := range c.waiters {
		if w.at.After(c.now) {
			kept = append(kept, w)
		} else {
			w.ch <- c.now
		}
	}
	c.waiters = kept
	c.signal()
}

func (c *schedClock) signal() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// awaitWaiters waits until n waits are pending: every scheduler is idle.
func (c *schedClock) awaitWaiters(t *testing.T, n int) {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		c.mu.Lock()
		count, changed := len(c.waiters), c.changed
		c.mu.Unlock()
		if count >= n {
			return
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("%d of %d schedulers idle after 20s", count, n)
		}
	}
}

// step advances the clock by d, steps times, waiting for n schedulers to
// finish each pass.
func (c *schedClock) step(t *testing.T, n, steps int, d time.Duration) {
	t.Helper()
	for range steps {
		c.Advance(d)
		c.awaitWaiters(t, n)
	}
}

// tick is the input a test task's job receives.
type tick struct {
	Task    string    `json:"task"`
	At      time.Time `json:"at"`
	Through time.Time `json:"through"`
}

func tickJob(t testing.TB, name string) *pipeline.Job[tick, struct{}] {
	t.Helper()
	j, err := pipeline.NewJob(name, func(in tick) string { return in.Task + "@" + in.At.UTC().Format(time.RFC3339) },
		func(context.Context, *pipeline.Run[tick]) (struct{}, error) { return struct{}{}, nil })
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func tickEntry(j *pipeline.Job[tick, struct{}]) []pipeline.TaskEntry {
	return []pipeline.TaskEntry{pipeline.Entry(j, func(o pipeline.Occurrence) tick {
		return tick{Task: o.Task, At: o.At, Through: o.Through}
	})}
}

// tickTask declares a task firing a job named after it.
func tickTask(t *testing.T, name, cron, zone string, opts ...pipeline.TaskOptions) *pipeline.Task {
	t.Helper()
	task, err := pipeline.NewTask(name, cron, zone, tickEntry(tickJob(t, name)), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return task
}

// fired answers the inputs of the jobs the task's occurrences queued, in
// occurrence order.
func fired(t *testing.T, pool *pgxpool.Pool, task string) []tick {
	t.Helper()
	rows, err := pool.Query(context.Background(),
		`select input from pipe.jobs where name = $1 order by (input->>'at')::timestamptz`, task)
	if err != nil {
		t.Fatal(err)
	}
	var out []tick
	for rows.Next() {
		var in tick
		if err := rows.Scan(&in); err != nil {
			t.Fatal(err)
		}
		out = append(out, in)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func firedAts(t *testing.T, pool *pgxpool.Pool, task string) []time.Time {
	t.Helper()
	var out []time.Time
	for _, in := range fired(t, pool, task) {
		out = append(out, in.At.UTC())
	}
	return out
}

// startScheduler starts a scheduler on clk until the test ends, and waits for
// its first pass.
func startScheduler(t *testing.T, pool *pgxpool.Pool, clk *schedClock, id string, log *slog.Logger, tasks ...*pipeline.Task) *pipeline.Scheduler {
	t.Helper()
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s, err := pipeline.NewScheduler(pool, pipeline.SchedulerConfig{Tasks: tasks, ID: id, Clock: clk, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	clk.mu.Lock()
	before := len(clk.waiters)
	clk.mu.Unlock()
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = s.Stop(ctx)
	})
	clk.awaitWaiters(t, before+1)
	return s
}

// utc parses an RFC 3339 instant.
func utc(t *testing.T, s string) time.Time {
	t.Helper()
	at, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return at.UTC()
}

func sameInstants(a, b []time.Time) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
}

// statementCounter counts the statements a pool runs.
type statementCounter struct {
	mu sync.Mutex
	n  int
}

func (c *statementCounter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	return ctx
}

func (c *statementCounter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

func (c *statementCounter) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

func (c *statementCounter) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n = 0
}

// tracedPool answers a pool on a fresh database whose statements tracer sees.
func tracedPool(t *testing.T, tracer pgx.QueryTracer) *pgxpool.Pool {
	t.Helper()
	cfg, err := pgxpool.ParseConfig(fixtures.DBURL(t))
	if err != nil {
		t.Fatal(err)
	}
	cfg.ConnConfig.Tracer = tracer
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// eventLog is a slog handler keeping the event names logged.
type eventLog struct {
	mu      sync.Mutex
	events  []string
	changed chan struct{}
}

func (l *eventLog) Enabled(context.Context, slog.Level) bool { return true }
func (l *eventLog) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *eventLog) WithGroup(string) slog.Handler            { return l }

func (l *eventLog) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, r.Message)
	if l.changed != nil {
		close(l.changed)
		l.changed = nil
	}
	return nil
}

// await waits until event is logged.
func (l *eventLog) await(t *testing.T, event string) {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		l.mu.Lock()
		if slices.Contains(l.events, event) {
			l.mu.Unlock()
			return
		}
		if l.changed == nil {
			l.changed = make(chan struct{})
		}
		changed := l.changed
		l.mu.Unlock()
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("%s was not logged within 20s", event)
		}
	}
}

func (l *eventLog) has(event string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Contains(l.events, event)
}
