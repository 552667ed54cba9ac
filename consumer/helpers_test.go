package consumer_test

import (
	"context"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/consumer"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// item is what the test feeds deliver: the integers 1, 2, 3...
type item struct {
	N int64 `json:"n"`
}

// seqFeed delivers the integers after its cursor up to last, at most max a
// read. Past last it ends the stream (end), or waits as asked (a quiet
// stream), or — deaf — blocks until its context ends, ignoring the wait.
type seqFeed struct {
	mu    sync.Mutex
	next  int64
	last  int64
	end   bool
	deaf  bool
	reads []readCall
}

// readCall is one Read the run made and what it got.
type readCall struct {
	max  int
	wait time.Duration
	got  int
}

func newSeqFeed(cursor, last int64, end bool) *seqFeed {
	return &seqFeed{next: cursor + 1, last: last, end: end}
}

func (f *seqFeed) Read(ctx context.Context, max int, wait time.Duration) ([]item, error) {
	f.mu.Lock()
	var out []item
	for len(out) < max && f.next <= f.last {
		out = append(out, item{N: f.next})
		f.next++
	}
	f.reads = append(f.reads, readCall{max: max, wait: wait, got: len(out)})
	done, end, deaf := f.next > f.last, f.end, f.deaf
	f.mu.Unlock()
	switch {
	case len(out) > 0 && done && end:
		return out, io.EOF
	case len(out) > 0:
		return out, nil
	case end:
		return nil, io.EOF
	case deaf:
		<-ctx.Done()
		return nil, ctx.Err()
	}
	select {
	case <-time.After(wait):
		return nil, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (f *seqFeed) Close() error { return nil }

func (f *seqFeed) calls() []readCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]readCall(nil), f.reads...)
}

// feeds hands each key's run its feed: newFeed makes one per open.
type feeds struct {
	mu      sync.Mutex
	newFeed func(key string, cursor int64) *seqFeed
	opened  map[string][]*seqFeed
}

func (fs *feeds) open(_ context.Context, key string, cursor int64) (consumer.Feed[item], error) {
	f := fs.newFeed(key, cursor)
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if fs.opened == nil {
		fs.opened = map[string][]*seqFeed{}
	}
	fs.opened[key] = append(fs.opened[key], f)
	return f, nil
}

func (fs *feeds) last(key string) *seqFeed {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if l := fs.opened[key]; len(l) > 0 {
		return l[len(l)-1]
	}
	return nil
}

const effectsDDL = `create table effects (key text not null, n bigint not null);
	create index on effects (key, n)`

// handleEffects inserts the batch into effects and answers its last item:
// the effect and the cursor commit together.
func handleEffects(ctx context.Context, tx pgx.Tx, key string, items []item) (int64, error) {
	ns := make([]int64, len(items))
	for i, it := range items {
		ns[i] = it.N
	}
	_, err := tx.Exec(ctx, `insert into effects select $1, unnest($2::bigint[])`, key, ns)
	return ns[len(ns)-1], err
}

// options declares a consumer named name over keys, fed by fs, writing
// effects, keeping its cursor in pipe.
func options(name string, fs *feeds, keys ...string) consumer.Options[item, int64] {
	return consumer.Options[item, int64]{
		Name:   name,
		Keys:   func(context.Context, pgx.Tx) ([]string, error) { return keys, nil },
		Open:   fs.open,
		Handle: handleEffects,
		Cursor: consumer.StoredCursor[int64](),
		Batch:  10,
		Job:    pipeline.JobOptions[consumer.Input, consumer.Result]{Retry: &pipeline.Retry{Attempts: 3, Delay: 10 * time.Millisecond}},
	}
}

func setup(t testing.TB) *pgxpool.Pool {
	t.Helper()
	pool := fixtures.DB(t)
	if _, err := pool.Exec(context.Background(), effectsDDL); err != nil {
		t.Fatal(err)
	}
	return pool
}

// cursorOf answers key's stored cursor, 0 when none.
func cursorOf(t testing.TB, pool *pgxpool.Pool, name, key string) int64 {
	t.Helper()
	var c int64
	err := pool.QueryRow(context.Background(),
		`select coalesce((select cursor::bigint from pipe.consumer_cursors where consumer = $1 and key = $2), 0)`, name, key).Scan(&c)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// effectsOf answers how many effects key has, how many distinct, and the
// largest.
func effectsOf(t testing.TB, pool *pgxpool.Pool, key string) (n, distinct, top int64) {
	t.Helper()
	err := pool.QueryRow(context.Background(),
		`select count(*), count(distinct n), coalesce(max(n), 0) from effects where key = $1`, key).Scan(&n, &distinct, &top)
	if err != nil {
		t.Fatal(err)
	}
	return n, distinct, top
}

// awaitCursor waits until key's cursor reaches at least n.
func awaitCursor(t testing.TB, pool *pgxpool.Pool, name, key string, n int64) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for cursorOf(t, pool, name, key) < n {
		if time.Now().After(deadline) {
			t.Fatalf("cursor of %s at %d after 60s; want %d", key, cursorOf(t, pool, name, key), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// runOf answers the live or last run of key.
func runOf(t testing.TB, pool *pgxpool.Pool, name, key string) *pipeline.RunDetail {
	t.Helper()
	var id string
	err := pool.QueryRow(context.Background(),
		`select id::text from pipe.jobs where name = $1 and input->>'key' = $2 order by created_at desc limit 1`, name, key).Scan(&id)
	if err != nil {
		t.Fatal(err)
	}
	d, err := pipeline.NewAdmin(pool).Show(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func lastCode(d *pipeline.RunDetail) string {
	if d.LastError == nil {
		return ""
	}
	return d.LastError.Code
}
