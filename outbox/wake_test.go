package outbox_test

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/outbox"
)

// looks counts a pool's looks for new outbox rows (reads of the sequence's
// last value) and its statements outside a transaction block plus its
// BEGINs: its transactions.
type looks struct {
	looks, txs atomic.Int64
}

func (l *looks) TraceQueryStart(ctx context.Context, c *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	if strings.Contains(d.SQL, "pg_sequence_last_value") {
		l.looks.Add(1)
	}
	if c.PgConn().TxStatus() == 'I' {
		l.txs.Add(1)
	}
	return ctx
}

func (l *looks) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// tracedPool answers a pool on a fresh database whose looks and
// transactions are counted.
func tracedPool(t *testing.T) (*pgxpool.Pool, *looks) {
	t.Helper()
	l := &looks{}
	return fixtures.TracedDB(t, l), l
}

// startIdleRelay arms and works a relay of stream "orders" on pool and
// waits for its wake's first word (event).
func startIdleRelay(t *testing.T, pool *pgxpool.Pool, o outbox.Options, event string) {
	t.Helper()
	log := &fixtures.Events{}
	o.Streams, o.Logger = []outbox.Stream{{Name: "orders"}}, slog.New(log)
	if o.Listen == nil {
		o.Listen = fixtures.ListenConfig(t, pool) // past the kit's PgBouncer, when the tests run through it
	}
	o.Publisher = newJSStream(t, sharedNATS(t), 0).publisher(t)
	relay := outbox.MustNew(o)
	if _, err := relay.Arm(context.Background(), pool); err != nil {
		t.Fatal(err)
	}
	fixtures.StartWorker(t, pool, relay.Jobs()...)
	log.Await(t, event)
}

// publishedWithin waits up to d for every staged row to be published.
func publishedWithin(t *testing.T, pool *pgxpool.Pool, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for count(t, pool, `select count(*) from pipe.outbox o where not `+published) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("a staged message not published within %v", d)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// An idle relay with a proven wake backs off to IdlePollMax: over 3 s it
// looks about a dozen times where the old 10 ms poll looked 300, and its
// whole pool's transactions stay far below.
func TestAnIdleRelayBacksOffToItsCeiling(t *testing.T) {
	pool, l := tracedPool(t)
	startIdleRelay(t, pool, outbox.Options{IdlePollMax: 250 * time.Millisecond}, "pgtail.wake.live")
	time.Sleep(2 * time.Second) // 10, 20, ... 250 ms: at the ceiling well within this
	looks0, txs0 := l.looks.Load(), l.txs.Load()
	time.Sleep(3 * time.Second)
	looks, txs := l.looks.Load()-looks0, l.txs.Load()-txs0
	if looks > 16 || looks < 4 {
		t.Fatalf("%d looks in 3 s idle; want 4 to 16 (one every 250 ms), where the 10 ms poll made 300", looks)
	}
	// The test kit's worker polls its queues every 50 ms (60 in 3 s).
	if txs > 120 {
		t.Fatalf("%d transactions in 3 s idle; want far below the 300 of the relay's old poll alone", txs)
	}
}

// A message staged beside an idle relay whose next look is half a minute
// away is published within a second: the staging's notification wakes it.
func TestAStagedMessageWakesAnIdleRelay(t *testing.T) {
	pool := fixtures.DB(t)
	startIdleRelay(t, pool, outbox.Options{Poll: 30 * time.Second, IdlePollMax: time.Minute}, "pgtail.wake.live")
	time.Sleep(300 * time.Millisecond) // its first looks are behind it
	for range 3 {
		if _, err := outbox.Stage(context.Background(), pool, outbox.Message{Stream: "orders", Payload: []byte("x")}); err != nil {
			t.Fatal(err)
		}
		publishedWithin(t, pool, time.Second)
		time.Sleep(outbox.DefaultWakeThrottle) // a staging past the wake throttle's window notifies
	}
}

// With a wake that cannot be proven (its LISTEN on another database, as
// through a transaction-pooling PgBouncer) the relay says it polls, and a
// staged message is published by the poll.
func TestAnUnprovenWakeFallsBackToPolling(t *testing.T) {
	pool := fixtures.DB(t)
	other, err := pgx.ParseConfig(fixtures.DBURL(t))
	if err != nil {
		t.Fatal(err)
	}
	startIdleRelay(t, pool, outbox.Options{Poll: 50 * time.Millisecond, IdlePollMax: time.Hour, Listen: other}, "pgtail.wake.polling")
	if _, err := outbox.Stage(context.Background(), pool, outbox.Message{Stream: "orders", Payload: []byte("x")}); err != nil {
		t.Fatal(err)
	}
	publishedWithin(t, pool, 10*time.Second)
}

// Staging notifies the stream's relay when its transaction commits: a
// rolled-back staging notifies nobody; a StageMany of two streams notifies
// each once per statement with the throttle off, and once in all within
// the default throttle's window.
func TestOnlyACommittedStagingNotifies(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := context.Background()
	conn := fixtures.SessionConn(t, pool)
	if _, err := conn.Exec(ctx, "listen "+outbox.WakeChannel); err != nil {
		t.Fatal(err)
	}
	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := outbox.Stage(ctx, tx, outbox.Message{Stream: "rolled-back", Payload: []byte("x")}); err != nil {
		t.Fatal(err)
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	ms := make([]outbox.Message, 2500)
	for i := range ms {
		ms[i] = outbox.Message{Stream: []string{"a", "b"}[i%2], Payload: []byte("x")}
	}
	outbox.SetWakeThrottle(0)
	t.Cleanup(func() { outbox.SetWakeThrottle(outbox.DefaultWakeThrottle) })
	if _, err := outbox.StageMany(ctx, pool, ms); err != nil {
		t.Fatal(err)
	}
	// Three statements, each notifying a and b once.
	if got := notified(ctx, conn); got != "a,a,a,b,b,b" {
		t.Fatalf("notified %q; want a and b once per statement, and nothing of the rolled-back staging", got)
	}
	outbox.SetWakeThrottle(time.Hour)
	if _, err := outbox.StageMany(ctx, pool, ms); err != nil {
		t.Fatal(err)
	}
	if got := notified(ctx, conn); got != "" {
		t.Fatalf("notified %q within the throttle's window of the last notification; want nothing", got)
	}
}

// notified answers the payloads conn hears until 500 ms pass without one,
// sorted.
func notified(ctx context.Context, conn *pgx.Conn) string {
	var got []string
	for {
		wctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
		n, err := conn.WaitForNotification(wctx)
		cancel()
		if err != nil {
			break
		}
		got = append(got, n.Payload)
	}
	slices.Sort(got)
	return strings.Join(got, ",")
}
