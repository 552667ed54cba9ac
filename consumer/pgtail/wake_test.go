package pgtail_test

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/consumer/pgtail"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pg"
)

// looks counts a pool's looks for new rows (reads of the sequence's last
// value), with when each began.
type looks struct {
	mu sync.Mutex
	at []time.Time
}

func (l *looks) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	if strings.Contains(d.SQL, "pg_sequence_last_value") {
		l.mu.Lock()
		l.at = append(l.at, time.Now())
		l.mu.Unlock()
	}
	return ctx
}

func (l *looks) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// since counts the looks begun at or after from.
func (l *looks) since(from time.Time) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, at := range l.at {
		if !at.Before(from) {
			n++
		}
	}
	return n
}

// tracedEvents answers a pool on a fresh database holding the events table
// whose looks are counted.
func tracedEvents(t *testing.T) (*pgxpool.Pool, *looks) {
	t.Helper()
	l := &looks{}
	pool := fixtures.TracedDB(t, l)
	if _, err := pool.Exec(context.Background(), eventsDDL); err != nil {
		t.Fatal(err)
	}
	return pool, l
}

// otherDatabase answers the settings of a database other than the pool's:
// a LISTEN there never hears the pool's notifications, as one through a
// transaction-pooling PgBouncer does not.
func otherDatabase(t *testing.T) *pgx.ConnConfig {
	t.Helper()
	cfg, err := pgx.ParseConfig(fixtures.DBURL(t))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// insertNotified inserts an event of key k and notifies channel in one
// transaction.
func insertNotified(t *testing.T, pool *pgxpool.Pool, channel, k string) {
	t.Helper()
	_, err := pool.Exec(context.Background(), `with e as (insert into events (account, body) values ($2, 'b') returning account)
		select pg_notify($1, account) from e`, channel, k)
	if err != nil {
		t.Fatal(err)
	}
}

// A caught-up tail with a proven wake backs off to IdlePollMax: over its
// last second idle it looks a handful of times, not the hundred a 10 ms
// poll makes; it still looks (the poll stays the guarantee).
func TestAProvenWakeBacksOffToItsCeiling(t *testing.T) {
	pool, l := tracedEvents(t)
	log := &fixtures.Events{}
	tail := pgtail.MustNew(pool, pgtail.Options[event]{Table: pg.Relation{Name: "events"}, Poll: 10 * time.Millisecond,
		Channel: "events_wake", IdlePollMax: 250 * time.Millisecond, Listen: fixtures.ListenConfig(t, pool), Logger: slog.New(log)})
	f := open(t, tail, 0)
	log.Await(t, "pgtail.wake.live")
	start := time.Now()
	rows, err := f.Read(context.Background(), 10, 3*time.Second)
	if err != nil || len(rows) != 0 {
		t.Fatalf("read %v (%v) of an empty table", ids(rows), err)
	}
	total, last := l.since(start), l.since(start.Add(2*time.Second))
	if total > 30 || last > 6 || last < 2 {
		t.Fatalf("%d looks in 3 s idle, %d in the last second; want at most 30, and 2 to 6 in the last (one every 250 ms)", total, last)
	}
}

// A notified row is read at once by a tail whose next look is half a
// minute away.
func TestANotifiedRowWakesABackedOffTail(t *testing.T) {
	pool, _ := tracedEvents(t)
	log := &fixtures.Events{}
	tail := pgtail.MustNew(pool, pgtail.Options[event]{Table: pg.Relation{Name: "events"}, Poll: 30 * time.Second,
		Channel: "events_wake", IdlePollMax: time.Minute, Listen: fixtures.ListenConfig(t, pool), Logger: slog.New(log)})
	f := open(t, tail, 0)
	log.Await(t, "pgtail.wake.live")
	ctx := context.Background()
	if rows, err := f.Read(ctx, 10, 100*time.Millisecond); err != nil || len(rows) != 0 {
		t.Fatalf("read %v (%v) of an empty table", ids(rows), err)
	}
	insertNotified(t, pool, "events_wake", "k")
	rows, err := f.Read(ctx, 10, 5*time.Second)
	if err != nil || len(rows) != 1 {
		t.Fatalf("read %v (%v) within 5 s of a notified row, the next poll 30 s away; want the row", ids(rows), err)
	}
}

// A wake that cannot be proven — LISTEN where the notifications do not
// arrive — is said at start, and the tail keeps the short poll and reads
// the row.
func TestAnUnprovenWakeKeepsTheShortPoll(t *testing.T) {
	pool, l := tracedEvents(t)
	log := &fixtures.Events{}
	tail := pgtail.MustNew(pool, pgtail.Options[event]{Table: pg.Relation{Name: "events"}, Poll: 10 * time.Millisecond,
		Channel: "events_wake", IdlePollMax: time.Minute, Listen: otherDatabase(t), Logger: slog.New(log)})
	f := open(t, tail, 0)
	log.Await(t, "pgtail.wake.polling")
	ctx := context.Background()
	start := time.Now()
	if rows, err := f.Read(ctx, 10, time.Second); err != nil || len(rows) != 0 {
		t.Fatalf("read %v (%v) of an empty table", ids(rows), err)
	}
	if n := l.since(start); n < 20 {
		t.Fatalf("%d looks in a second unproven; want the short poll's (about 100)", n)
	}
	insertNotified(t, pool, "events_wake", "k")
	rows, err := f.Read(ctx, 10, 5*time.Second)
	if err != nil || len(rows) != 1 {
		t.Fatalf("read %v (%v); want the row, by the poll", ids(rows), err)
	}
}
