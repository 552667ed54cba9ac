package jetstream_test

import (
	"context"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	js "github.com/nats-io/nats.go/jetstream"

	"github.com/pipekit/pipe/consumer/jetstream"
	"github.com/pipekit/pipe/fixtures"
)

// killMessages is how many messages the kill test publishes, half a key.
const killMessages = 4000

// Two keys of a stream of each retention are followed by worker processes
// while 4,000 messages are published live. The first process is SIGKILLed
// with a batch in hand on each key, the second drained by SIGTERM, a third
// goes on. Every message published is handled exactly once: the effect
// table holds each key's published sequences, once each, and nothing else.
// The only messages handed over twice are the killed batches in hand, and
// each of them twice. At the end each key has one durable with nothing
// pending, and an Interest or WorkQueue stream is empty: every message was
// acknowledged.
func TestSIGKILLAndDrainLoseNoMessage(t *testing.T) {
	for _, r := range retentions {
		t.Run(r.name, func(t *testing.T) { killAndDrain(t, r.RetentionPolicy) })
	}
}

func killAndDrain(t *testing.T, retention js.RetentionPolicy) {
	st := newStreamOf(t, retention)
	ctx := context.Background()
	url := fixtures.DBURL(t)
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if _, err := pool.Exec(ctx, killDDL); err != nil {
		t.Fatal(err)
	}
	src := jetstream.MustNew(st.nc, killOptions(st.name))
	c := killConsumer(pool, src)
	for _, k := range killKeys {
		if _, err := c.Enqueue(ctx, pool, k); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{natsEnv + "=" + st.url, streamEnv + "=" + st.name}
	a := fixtures.StartChild(t, url, "jetstream", env...)
	// An Interest stream keeps nothing for a key before its durable exists.
	awaitTrue(t, func() bool { return len(st.durables(t)) == len(killKeys) })
	pub := publishLive(st, src, killMessages)
	awaitHandled(t, pool, killMessages/4)
	inHand := holdInHand(t, pool, a.Pid())
	a.Kill(t)
	t.Logf("SIGKILL with %d published, %d handled", pub.n.Load(), countEffects(pool))
	atKill := map[string]uint64{}
	for _, k := range killKeys {
		atKill[k] = storedCursor(t, pool, k)
	}
	b := fixtures.StartChild(t, url, "jetstream", env...)
	awaitHandled(t, pool, killMessages*5/8)
	t.Logf("SIGTERM with %d published, %d handled", pub.n.Load(), countEffects(pool))
	if err := b.Terminate(t); err != nil {
		t.Fatalf("the drained worker exited with %v", err)
	}
	fixtures.StartChild(t, url, "jetstream", env...)
	published := pub.wait(t)
	for _, k := range killKeys {
		last := published[k][len(published[k])-1]
		awaitTrue(t, func() bool { return storedCursor(t, pool, k) == last })
	}
	assertExactlyOnce(t, pool, published)
	assertDuplicatesInHand(t, pool, atKill, inHand)
	assertAcknowledged(t, st, retention)
}

// holdInHand holds the process pid in its Handle — each key's batch handed
// over, its transaction not committed — and answers what it has in hand
// once both keys wait there.
func holdInHand(t *testing.T, pool *pgxpool.Pool, pid int) map[string][]uint64 {
	t.Helper()
	ctx := context.Background()
	if _, err := pool.Exec(ctx, `insert into holds values ($1)`, pid); err != nil {
		t.Fatal(err)
	}
	awaitTrue(t, func() bool {
		var n int
		err := pool.QueryRow(ctx, `select count(distinct key) from held where pid = $1`, pid).Scan(&n)
		return err == nil && n == len(killKeys)
	})
	inHand := map[string][]uint64{}
	for _, k := range killKeys {
		rows, _ := pool.Query(ctx, `select seq from deliveries where pid = $1 and key = $2 and seq > $3 order by seq`, pid, k, storedCursor(t, pool, k))
		got, err := pgx.CollectRows(rows, pgx.RowTo[uint64])
		if err != nil || len(got) == 0 {
			t.Fatalf("key %s: %d messages in hand (%v)", k, len(got), err)
		}
		inHand[k] = got
	}
	return inHand
}

// awaitHandled waits until every key's cursor reaches stream sequence n.
func awaitHandled(t *testing.T, pool *pgxpool.Pool, n int) {
	t.Helper()
	awaitTrue(t, func() bool { return handledUpTo(pool) >= n })
}

func countEffects(pool *pgxpool.Pool) int {
	var n int
	if err := pool.QueryRow(context.Background(), `select count(*) from effects`).Scan(&n); err != nil {
		return -1
	}
	return n
}

// assertExactlyOnce checks that each key's effects are its published
// sequences, each once.
func assertExactlyOnce(t *testing.T, pool *pgxpool.Pool, published map[string][]uint64) {
	t.Helper()
	for _, k := range killKeys {
		rows, _ := pool.Query(context.Background(), `select seq from effects where key = $1 order by seq`, k)
		got, err := pgx.CollectRows(rows, pgx.RowTo[uint64])
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, published[k]) {
			t.Errorf("key %s: %d effects for %d messages published (%d distinct, %d missing)", k, len(got), len(published[k]), len(slices.Compact(slices.Clone(got))), missing(published[k], got))
			continue
		}
		t.Logf("key %s: %d messages published, each handled once", k, len(got))
	}
}

func missing(want, got []uint64) int {
	n := 0
	for _, s := range want {
		if _, ok := slices.BinarySearch(got, s); !ok {
			n++
		}
	}
	return n
}

// assertDuplicatesInHand checks that the messages handed over twice are
// exactly the killed process's batches in hand, above the cursor at the
// kill, each handed over twice.
func assertDuplicatesInHand(t *testing.T, pool *pgxpool.Pool, atKill map[string]uint64, inHand map[string][]uint64) {
	t.Helper()
	for _, k := range killKeys {
		rows, _ := pool.Query(context.Background(), `select seq from deliveries where key = $1 group by seq having count(*) > 1 order by seq`, k)
		dups, err := pgx.CollectRows(rows, pgx.RowTo[uint64])
		if err != nil {
			t.Fatal(err)
		}
		var times int
		if err := pool.QueryRow(context.Background(), `select coalesce(max(n), 0) from (select count(*) n from deliveries where key = $1 group by seq) s`, k).Scan(&times); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(dups, inHand[k]) || times > 2 || len(dups) > killBatch || dups[0] <= atKill[k] {
			t.Errorf("key %s: handed over twice %v (at most %d times); want the batch in hand at the kill %v, above the cursor %d", k, dups, times, inHand[k], atKill[k])
			continue
		}
		t.Logf("key %s: %d messages handed over twice, the killed batch in hand", k, len(dups))
	}
}

// assertAcknowledged checks that each key has one durable, with nothing
// pending, and that an Interest or WorkQueue stream kept nothing.
func assertAcknowledged(t *testing.T, st *stream, retention js.RetentionPolicy) {
	t.Helper()
	names := st.durables(t)
	if len(names) != len(killKeys) {
		t.Fatalf("durables %v; want one a key", names)
	}
	for _, n := range names {
		cons, err := st.js.Consumer(context.Background(), st.name, n)
		if err != nil {
			t.Fatal(err)
		}
		awaitTrue(t, func() bool {
			info, err := cons.Info(context.Background())
			return err == nil && info.NumAckPending == 0 && info.NumPending == 0
		})
	}
	want := uint64(killMessages)
	if retention != js.LimitsPolicy {
		want = 0
	}
	awaitTrue(t, func() bool { return st.messages(t) == want })
}
