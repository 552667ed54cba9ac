package consumer_test

import (
	"context"
	"log/slog"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/consumer"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// The kill test's consumer: four keys of killItems items each, batches of
// killBatch, every handle slow enough (10 ms inside its transaction) that a
// kill lands in a batch in hand.
const (
	killItems = 600
	killBatch = 20
)

var killKeys = []string{"k1", "k2", "k3", "k4"}

// TestMain doubles as the kill test's worker processes: re-executed with
// fixtures.StartChild, the test binary runs a worker of two slots over the
// kill consumer until it is SIGKILLed.
func TestMain(m *testing.M) {
	fixtures.ChildMain(map[string]fixtures.ChildFunc{"consumer": func(ctx context.Context, pool *pgxpool.Pool) error {
		cfg := pool.Config()
		cfg.MaxConns = 16
		big, err := pgxpool.NewWithConfig(ctx, cfg)
		if err != nil {
			return err
		}
		reg, err := pipeline.NewRegistry(killConsumer(big).Jobs()...)
		if err != nil {
			return err
		}
		// A lease of two seconds, not the kit's half second: on a loaded
		// machine a live runner's half-second lease lapses, and the test
		// holds that only the killed batches are ever handed over twice.
		w, err := pipeline.NewWorker(big, pipeline.WorkerConfig{Registry: reg, Lease: 2 * time.Second, MaxInFlight: 2,
			PollInterval: 10 * time.Millisecond, IdlePollMax: 50 * time.Millisecond, BusyDelay: 20 * time.Millisecond,
			Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			return err
		}
		if err := w.Start(ctx); err != nil {
			return err
		}
		select {} // until SIGKILL
	}})
	os.Exit(m.Run())
}

const killDDL = effectsDDL + `;
	create table deliveries (key text not null, n bigint not null, pid int not null);
	create table violations (key text not null, pid int not null)`

// killConsumer is the consumer every process of the kill test declares. Its
// feed holds a session advisory lock on the key for as long as it is open,
// on a connection of its own, and records a violation when another process
// holds it: two runners of one key at once. Handle logs what it was handed
// outside its transaction (deliveries), then writes the effects in it.
func killConsumer(pool *pgxpool.Pool) *consumer.Consumer[item, int64] {
	pid := os.Getpid()
	return consumer.MustNew(consumer.Options[item, int64]{
		Name: "killed",
		Keys: func(context.Context, pgx.Tx) ([]string, error) { return killKeys, nil },
		Open: func(ctx context.Context, key string, cursor int64) (consumer.Feed[item], error) {
			return openLocked(ctx, pool, key, newSeqFeed(cursor, killItems, true))
		},
		Handle: func(ctx context.Context, tx pgx.Tx, key string, items []item) (int64, error) {
			ns := make([]int64, len(items))
			for i, it := range items {
				ns[i] = it.N
			}
			if _, err := pool.Exec(ctx, `insert into deliveries select $1, unnest($2::bigint[]), $3`, key, ns, pid); err != nil {
				return 0, err
			}
			// the batch stays in hand long enough for the test, which polls
			// for one every millisecond, to kill the process with it (10 ms
			// was not, under -race on a loaded machine: 1 run in 4 killed
			// a process whose batch had committed)
			if _, err := tx.Exec(ctx, `select pg_sleep(0.05)`); err != nil {
				return 0, err
			}
			return handleEffects(ctx, tx, key, items)
		},
		Cursor: consumer.StoredCursor[int64](),
		Batch:  killBatch,
	})
}

// lockedFeed is a feed that holds its key's advisory lock while open.
type lockedFeed struct {
	*seqFeed
	conn *pgxpool.Conn
}

func openLocked(ctx context.Context, pool *pgxpool.Pool, key string, f *seqFeed) (consumer.Feed[item], error) {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	var got bool
	if err := conn.QueryRow(ctx, `select pg_try_advisory_lock(42, hashtext($1))`, key).Scan(&got); err != nil {
		conn.Release()
		return nil, err
	}
	if !got {
		if _, err := conn.Exec(ctx, `insert into violations values ($1, $2)`, key, os.Getpid()); err != nil {
			conn.Release()
			return nil, err
		}
	}
	return &lockedFeed{seqFeed: f, conn: conn}, nil
}

func (f *lockedFeed) Close() error {
	_, err := f.conn.Exec(context.Background(), `select pg_advisory_unlock_all()`)
	f.conn.Release()
	return err
}

// Four keys on two worker processes of two slots each; one process is
// SIGKILLed with a batch in hand and a third takes its keys over. Every item
// lands in the effect table exactly once, the cursor always agreeing with
// it; the only items handed to Handle twice are the killed batches in hand;
// and no key ever had two runners at once.
func TestSIGKILLMidBatchAndTwoWorkersNeverShareAKey(t *testing.T) {
	ctx := context.Background()
	// Straight to the server: the test's own witness of two runners is a
	// session advisory lock, which a transaction pooler would leave on a
	// server the killed process no longer holds.
	url := fixtures.DirectURL(t, fixtures.DBURL(t))
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if _, err := pool.Exec(ctx, killDDL); err != nil {
		t.Fatal(err)
	}
	c := killConsumer(pool)
	ids := map[string]string{}
	for _, k := range killKeys[:2] {
		res, err := c.Enqueue(ctx, pool, k)
		if err != nil {
			t.Fatal(err)
		}
		ids[k] = res.ID
	}
	a := fixtures.StartChild(t, url, "consumer")
	awaitRunning(t, pool, 2)
	for _, k := range killKeys[2:] {
		res, err := c.Enqueue(ctx, pool, k)
		if err != nil {
			t.Fatal(err)
		}
		ids[k] = res.ID
	}
	fixtures.StartChild(t, url, "consumer")
	awaitRunning(t, pool, 4)
	disagreements := sampleAgreement(t, pool)
	awaitInHand(t, pool, a.Pid())
	a.Kill(t)
	atKill := map[string]int64{}
	for _, k := range killKeys {
		atKill[k] = cursorOf(t, pool, "killed", k)
	}
	fixtures.StartChild(t, url, "consumer")
	for k, id := range ids {
		if d := fixtures.AwaitSettled(t, pool, id); d.State != "done" {
			t.Fatalf("key %s: %s (%s)", k, d.State, lastCode(d))
		}
	}
	if n := disagreements(); n != 0 {
		t.Fatalf("%d samples saw the effect table and the cursor disagree", n)
	}
	for _, k := range killKeys {
		if n, distinct, top := effectsOf(t, pool, k); n != killItems || distinct != killItems || top != killItems {
			t.Fatalf("key %s: %d effects (%d distinct, top %d); want 1..%d once", k, n, distinct, top, killItems)
		}
		if cur := cursorOf(t, pool, "killed", k); cur != killItems {
			t.Fatalf("key %s: cursor %d", k, cur)
		}
	}
	assertDuplicatesInHand(t, pool, a.Pid(), atKill)
	var violations int
	if err := pool.QueryRow(ctx, `select count(*) from violations`).Scan(&violations); err != nil || violations != 0 {
		t.Fatalf("%d times a key had two runners at once (%v)", violations, err)
	}
}

// assertDuplicatesInHand checks that every item handed over twice was in the
// batch the killed process had in hand — above the cursor at the kill, at
// most a batch — and that the kill did land with a batch in hand.
func assertDuplicatesInHand(t *testing.T, pool *pgxpool.Pool, killed int, atKill map[string]int64) {
	t.Helper()
	rows, err := pool.Query(context.Background(), `select key, n, count(*) from deliveries group by key, n having count(*) > 1 order by key, n`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	dups := 0
	for rows.Next() {
		var key string
		var n, times int64
		if err := rows.Scan(&key, &n, &times); err != nil {
			t.Fatal(err)
		}
		if times != 2 || n <= atKill[key] || n > atKill[key]+killBatch {
			t.Errorf("key %s item %d handed over %d times; the cursor at the kill was %d", key, n, times, atKill[key])
		}
		dups++
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if dups == 0 || dups > 2*killBatch {
		t.Fatalf("%d items handed over twice; want the killed process's batches in hand (1 to %d)", dups, 2*killBatch)
	}
	var byKilled int
	if err := pool.QueryRow(context.Background(), `select count(distinct key) from deliveries where pid = $1`, killed).Scan(&byKilled); err != nil || byKilled != 2 {
		t.Fatalf("the killed process handled %d keys (%v); want its two", byKilled, err)
	}
}

// awaitRunning waits until n runs of the kill consumer are running.
func awaitRunning(t *testing.T, pool *pgxpool.Pool, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		var got int
		if err := pool.QueryRow(context.Background(), `select count(*) from pipe.jobs where name = 'killed' and state = 'running'`).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d runs running after 30s; want %d", got, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// awaitInHand waits until the process pid has handed a batch to Handle that
// has not committed — a batch in hand — after a quarter of the work.
func awaitInHand(t *testing.T, pool *pgxpool.Pool, pid int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		var inHand bool
		err := pool.QueryRow(context.Background(), `
			select exists (
				select 1 from deliveries d
				left join pipe.consumer_cursors c on c.consumer = 'killed' and c.key = d.key
				where d.pid = $1 and d.n > coalesce(c.cursor::bigint, 0) and d.n > $2)`, pid, killItems/4).Scan(&inHand)
		if err != nil {
			t.Fatal(err)
		}
		if inHand {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("no batch in hand in the process to kill after 30s")
		}
		time.Sleep(time.Millisecond)
	}
}

// sampleAgreement reads, until the test ends, every key's effects and cursor
// in one statement (one snapshot) and counts the samples where they
// disagree; it answers a function reporting the count so far.
func sampleAgreement(t *testing.T, pool *pgxpool.Pool) func() int64 {
	var bad atomic.Int64
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	t.Cleanup(func() { cancel(); <-done })
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			var n int64
			err := pool.QueryRow(ctx, `
				select count(*) from (
					select e.key, count(*) as n, count(distinct e.n) as d, max(e.n) as top, c.cursor::bigint as cur
					from effects e left join pipe.consumer_cursors c on c.consumer = 'killed' and c.key = e.key
					group by e.key, c.cursor) s
				where not (n = d and d = top and top = coalesce(cur, 0))`).Scan(&n)
			if err == nil {
				bad.Add(n)
			}
			time.Sleep(3 * time.Millisecond)
		}
	}()
	return bad.Load
}
