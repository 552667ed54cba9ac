package backfill

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/pipeline"
)

// Options declare a pass. Each field's comment gives its default; a fault is
// refused by [New] with X_BACKFILL_INVALID naming every fault.
type Options[In any] struct {
	// Table is the table the pass walks, in key order. Exactly one of Table
	// and Query.
	Table pg.Relation
	// Query is a SELECT the pass walks instead of a table, in the order of
	// its Key column (which it must answer, unique and never NULL: the pass
	// trusts it). It is SQL the application declares, never built from
	// end-user input. Exactly one of Table and Query.
	Query string
	// Key is the column the pass orders and ranges by: one column, unique
	// and never NULL. Default: the table's primary key when it is one
	// column. Required with Query.
	Key string
	// SQL is the statement run over each batch: one UPDATE, DELETE or
	// INSERT … SELECT whose WHERE keeps it to the batch's key range, $1 the
	// batch's first key and $2 its last, both inclusive (`where id between
	// $1 and $2`). Args' values follow as $3, $4... It commits with the
	// batch's checkpoint, so each batch's effect lands exactly once. Exactly
	// one of SQL and Handle.
	SQL string
	// Args answers the values of SQL's $3, $4... for a run. Nil: none.
	Args func(In) []any
	// Handle is the Go form: it is handed each batch's rows and the batch's
	// transaction. What it writes through tx commits with the checkpoint
	// (exactly once); what it does outside the database is at-least-once —
	// an attempt that dies before the commit hands the batch to the next.
	// Exactly one of SQL and Handle.
	Handle func(ctx context.Context, tx pgx.Tx, b Batch) error
	// Columns are the columns a Handle's rows hold, in order. Default: the
	// key alone.
	Columns []string
	// Target is the duration a batch aims at: the batch size moves toward
	// it after each batch. Default 200ms.
	Target time.Duration
	// Batch is the first batch's size, in rows. Default 1000.
	Batch int
	// MinBatch and MaxBatch bound the batch size. Defaults 10 and 100,000.
	MinBatch, MaxBatch int
	// Rate caps the pass at so many rows a second, over any second: time
	// the pass spent paused or waiting is not banked, and a batch is at
	// most a quarter of a second's rows. Zero: no cap.
	Rate float64
	// LockTimeout is each batch's lock_timeout: a batch that waits longer
	// for a lock another session holds is rolled back and retried smaller
	// after a back-off, instead of queueing behind the application. Default
	// 50ms.
	LockTimeout time.Duration
	// StatementTimeout is each batch's statement_timeout. A batch cut by it
	// is retried smaller; one cut at MinBatch fails the attempt. Default 5s.
	StatementTimeout time.Duration
	// Health is when the pass waits for the database. Its zero value is
	// its defaults.
	Health Health
	// Poll is how often a paused or waiting pass looks again. Default 1s.
	Poll time.Duration
	// Job are the job options (queue, retry, timeout...).
	Job pipeline.JobOptions[In, Result]
}

// Health says when the database is too busy for the pass: it waits, and
// says why in the ledger, while any limit is passed. A negative value turns
// its check off.
type Health struct {
	// ReplicationLag: the largest replay lag of a replica streaming from
	// the server the pass writes on, in time: pg_stat_replication's
	// replay_lag, how long ago the primary wrote the WAL a standby has
	// just replayed. A standby that has caught up and sees no new WAL
	// reads as no lag (NULL); a paused or slow one grows by the second
	// while WAL flows, and is read as fresh as the standby reports
	// (wal_receiver_status_interval, 10s by default; 1s makes the gate
	// quicker). A replica that is disconnected, or a cascaded one, is not
	// in the view and does not hold the pass. Default 10s.
	ReplicationLag time.Duration
	// TransactionAge: the age of the oldest transaction of the pass's own
	// database holding back vacuum (one with a transaction id or a
	// snapshot), the pass's own session excepted. A transaction of another
	// database of the server is not counted: it does not hold back the
	// vacuum of this database's tables. Default 10m.
	TransactionAge time.Duration
	// XIDAge: the age of the oldest database's frozen transaction id, as
	// wraparound nears. Default 1,000,000,000 (wraparound is near 2^31).
	XIDAge int64
	// Every is how often the health is read. Default 1s.
	Every time.Duration
}

// Batch is one batch a Handle is handed.
type Batch struct {
	// First and Last are the batch's first and last keys, as text.
	First, Last string
	// Columns name the values of each row, in order (Options.Columns).
	Columns []string
	// Rows are the batch's rows in key order, each value as pgx decodes
	// it.
	Rows [][]any
}

// Result is what a finished pass answers, stored on the job's row.
type Result struct {
	// Rows and Batches are the pass's totals, every attempt's included.
	Rows    int64 `json:"rows"`
	Batches int64 `json:"batches"`
	// Cursor is the last key the pass worked, as text.
	Cursor string `json:"cursor,omitempty"`
}

// Defaults of Options.
const (
	DefaultTarget           = 200 * time.Millisecond
	DefaultBatch            = 1000
	DefaultMinBatch         = 10
	DefaultMaxBatch         = 100_000
	DefaultLockTimeout      = 50 * time.Millisecond
	DefaultStatementTimeout = 5 * time.Second
	DefaultPoll             = time.Second
	DefaultReplicationLag   = 10 * time.Second
	DefaultTransactionAge   = 10 * time.Minute
	DefaultXIDAge           = 1_000_000_000
	DefaultHealthEvery      = time.Second
)

// Request is the input of a pass declared without Go (pipe.json, `pipe
// backfill run`): Pass labels it, and [PassKey] is its idempotency key, so
// one pass of a label is live at a time.
type Request struct {
	Pass string `json:"pass,omitempty"`
}

// PassKey is the idempotency key of a pass of [Request].
func PassKey(r Request) string {
	if r.Pass == "" {
		return "pass"
	}
	return "pass " + r.Pass
}
