package pgtail

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/consumer"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/internal/pgcatalog"
	"github.com/pipekit/pipe/internal/pgwake"
	"github.com/pipekit/pipe/pg"
)

// DefaultPoll is the default of [Options].Poll.
const DefaultPoll = 100 * time.Millisecond

// DefaultIdlePollMax is the default of [Options].IdlePollMax.
const DefaultIdlePollMax = 5 * time.Second

// LagCap is the most rows [Tail.Lag] counts: a longer backlog reports
// LagCap, so that measuring never scans a huge table.
const LagCap = 1_000_000

// Options declare a tail of an app table. Each field's comment gives its
// default.
type Options[T any] struct {
	// Table is the table: pg.Relation{Schema: "sales", Name: "Order
	// Items"}, or pg.ParseRelation of its SQL spelling. Its Schema defaults
	// to the search path. Required.
	Table pg.Relation
	// ID is the ordered id column: an integer column fed by a sequence
	// (serial, bigserial or an identity column). Default "id".
	ID string
	// Sequence is the sequence feeding ID, with its schema if it is not on
	// the search path. Default: the sequence the column owns. It must
	// count up by a positive increment with a cache of 1 (see the package
	// documentation).
	Sequence pg.Relation
	// Columns are the columns each row is scanned from, in order. Default:
	// every column of the table.
	Columns []string
	// Where is an SQL filter on the table, placed in parentheses after
	// WHERE, such as "account_id = $1". It is SQL the application writes,
	// never built from end-user input. Default: every row.
	Where string
	// Args answers the values of Where's parameters for a key. Default:
	// none.
	Args func(key string) []any
	// Scan makes a T of a row of Columns. Default
	// pgx.RowToStructByNameLax[T]: a struct whose fields (or db tags) name
	// the columns.
	Scan pgx.RowToFunc[T]
	// Poll is how often a caught-up tail looks again while it has no
	// proven wake (no Channel, or its LISTEN session unproven or lost).
	// Default 100ms.
	Poll time.Duration
	// Channel is a notification channel the table's writers notify, in
	// the writing transaction, with the key written as the payload (empty:
	// every key) — pg_notify(channel, key) in the statement or a trigger.
	// With it, a tail holds one LISTEN session on a dedicated connection,
	// proves it by a probe notification, and once it is proven a caught-up
	// feed backs off from Poll, doubling, to IdlePollMax, and looks at once
	// when notified. The poll stays the guarantee. Default: none (poll
	// every Poll).
	Channel string
	// IdlePollMax is the longest wait between two looks of a caught-up
	// feed once the wake is proven. Default 5s.
	IdlePollMax time.Duration
	// Listen is where the LISTEN session connects (made by
	// pgx.ParseConfig). Default: the pool's own settings. Behind a transaction-pooling PgBouncer, where LISTEN
	// does not hold, point it at the database itself.
	Listen *pgx.ConnConfig
	// Logger hears whether the wake is live (pgtail.wake.live) or the tail
	// polls (pgtail.wake.polling, pgtail.wake.lost). Default
	// slog.Default().
	Logger *slog.Logger
}

// Row is one row of the table: its id (the cursor past it) and its value.
type Row[T any] struct {
	ID    int64 `json:"id"`
	Value T     `json:"value"`
}

// Tail follows one table; Open is a consumer's Open, Lag its Lag.
type Tail[T any] struct {
	pool *pgxpool.Pool
	o    Options[T]
	wake *pgwake.Listener // nil without a Channel
}

// New declares a tail of a table read through pool. The table is checked
// when a feed opens, so that a tail can be declared before its table
// exists; a bad declaration is X_CONSUMER_INVALID now.
func New[T any](pool *pgxpool.Pool, o Options[T]) (*Tail[T], error) {
	var faults []string
	if pool == nil {
		faults = append(faults, "the pool is nil")
	}
	if o.Table.IsZero() {
		faults = append(faults, "Table is empty")
	} else if err := o.Table.Check(); err != nil {
		faults = append(faults, "Table: "+pgcatalog.Fault(err))
	}
	if !o.Sequence.IsZero() {
		if err := o.Sequence.Check(); err != nil {
			faults = append(faults, "Sequence: "+pgcatalog.Fault(err))
		}
	}
	if o.Poll < 0 || o.IdlePollMax < 0 {
		faults = append(faults, "Poll or IdlePollMax is negative")
	}
	if len(faults) > 0 {
		return nil, errcode.New(errcode.ConsumerInvalid, "table tail: %s", strings.Join(faults, "; ")).
			WithFix("correct the tail's declaration")
	}
	if o.ID == "" {
		o.ID = "id"
	}
	if o.Poll == 0 {
		o.Poll = DefaultPoll
	}
	if o.IdlePollMax == 0 {
		o.IdlePollMax = DefaultIdlePollMax
	}
	o.IdlePollMax = max(o.IdlePollMax, o.Poll)
	if o.Scan == nil {
		o.Scan = pgx.RowToStructByNameLax[T]
	}
	t := &Tail[T]{pool: pool, o: o}
	if o.Channel != "" {
		t.wake = pgwake.New(pgwake.Options{Channel: o.Channel, Pool: pool, Listen: o.Listen, Logger: o.Logger, Event: "pgtail.wake"})
	}
	return t, nil
}

// MustNew is [New] that panics on a bad declaration.
func MustNew[T any](pool *pgxpool.Pool, o Options[T]) *Tail[T] {
	t, err := New(pool, o)
	if err != nil {
		panic(err)
	}
	return t
}

// Open answers the feed of the rows after cursor — every row whose id is
// greater — for key (the key chooses Where's Args). It checks the table,
// its id column and its sequence first: a table the tail cannot follow is
// X_CONSUMER_SOURCE_INVALID.
func (t *Tail[T]) Open(ctx context.Context, key string, cursor int64) (consumer.Feed[Row[T]], error) {
	tb, err := resolve(ctx, t.pool, t.o)
	if err != nil {
		return nil, err
	}
	var args []any
	if t.o.Args != nil {
		args = slices.Clip(t.o.Args(key))
	}
	f := &feed[T]{t: t, tb: tb, sql: pageSQL(tb, t.o, len(args)), args: args, key: key, cursor: cursor, h: horizon{safe: cursor}}
	if t.wake != nil {
		t.wake.Acquire()
	}
	return f, nil
}

// Lag counts the rows after cursor that key's feed would read, through tx,
// up to LagCap.
func (t *Tail[T]) Lag(ctx context.Context, tx pgx.Tx, key string, cursor int64) (int64, error) {
	var args []any
	if t.o.Args != nil {
		args = t.o.Args(key)
	}
	var n int64
	err := tx.QueryRow(ctx, lagSQL(t.o, len(args)), append(args, cursor, LagCap)...).Scan(&n)
	return n, sourceErr(ctx, t.o, "count the lag", err)
}

// Cursor answers the cursor past a batch of rows: the last one's id. It is
// the usual Handle's answer.
func Cursor[T any](rows []Row[T]) int64 {
	if len(rows) == 0 {
		return 0
	}
	return rows[len(rows)-1].ID
}
