package exportrows

import (
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/pipeline"
)

// DefaultPageRows is the default of [Options].PageRows; MaxPageRows bounds
// PageRows and RowGroupRows.
const (
	DefaultPageRows = 100_000
	MaxPageRows     = 100_000_000
)

// Options declare an export. Each field's comment gives its default; a fault
// is refused by [New] with X_JOB_DECLARATION_INVALID naming every fault.
type Options[In any] struct {
	// Name is the job's durable name. Required.
	Name string
	// Check refuses an input before the run reads anything (its error
	// fails the attempt; give it a terminal code). Nil: no check.
	Check func(In) error
	// Source answers what a run reads: a table, or a query with its
	// ordering key. Required.
	Source func(In) Source
	// Columns are the exported columns, in file order, of every run whose
	// Source names none. Nil: every column of the table (or of the query)
	// but the sealed ones.
	Columns []string
	// Sealed are columns that are never exported. Asking for one in Columns
	// is refused here, at declaration; in a Source's Columns, when the run
	// starts, with X_EXPORT_COLUMN_SEALED. Without columns asked for they are
	// left out. A sealed column cannot be the ordering key. Nil: none.
	Sealed []string
	// Sink answers where a run writes its objects. Required.
	Sink func(In) Sink
	// Replica is a pool on a hot standby of the job's database: each run
	// reads its rows there, and only the job's bookkeeping (the plan, read
	// from the catalog, the checkpoints, the run) stays on the job's
	// database. The standby serves what it has replayed, so an export read
	// there can miss the primary's latest writes: a keyset page reads the
	// standby as it is then, and a Snapshot export is a point-in-time
	// export of the standby's state when its snapshot began, which is the
	// primary's as of the standby's replay position then. A long read on a
	// standby can be cancelled by recovery (max_standby_streaming_delay):
	// the attempt fails with X_REPLICA_CONFLICT and is retried (a Snapshot
	// export then reads its remaining pages in a new snapshot; the
	// manifest's Snapshots counts them); hot_standby_feedback = on on the
	// standby prevents it. Nil, the default: rows are read on the job's
	// database.
	Replica *pgxpool.Pool
	// Format is csv, ndjson or parquet. Default csv.
	Format Format
	// Compression is none, gzip or zstd. For csv and ndjson it compresses
	// each object (default none; the key gains .gz or .zst); for parquet it
	// is the codec of the column chunks inside the file (default zstd; the
	// key stays .parquet).
	Compression blob.Compression
	// PageRows is how many rows one page reads and one object holds: the
	// unit of a step and its checkpoint. Default 100,000; at most
	// MaxPageRows.
	PageRows int
	// RowGroupRows is, for parquet, how many rows one row group holds; a
	// row group also ends after 16 MiB of values, so memory stays bounded
	// whatever the row width. Default PageRows: one row group per object.
	RowGroupRows int
	// SettingsOf answers per-run overrides of Format, Compression, PageRows
	// and RowGroupRows (the CLI passes its flags through it). Nil: none.
	SettingsOf func(In) Settings
	// Parallel answers how many child runs read a run's key ranges (see
	// "Parallel exports" in the package documentation): the run plans the
	// ranges, enqueues one child run of this same job per range, holds one
	// snapshot that every child reads in, and writes the manifest of every
	// child's parts in key order. Nil, or an answer of 0 or 1: one run reads
	// every page. With Parallel, WithRange and RangeOf are required.
	Parallel func(In) int
	// WithRange answers the input of a child run: in carrying r. RangeOf
	// reads it back: nil for a run that is not a child.
	WithRange func(In, *Range) In
	RangeOf   func(In) *Range
	// SnapshotLifetime bounds how long a parallel export's parent holds
	// its snapshot open; past it the run fails with X_EXPORT_SNAPSHOT_LOST.
	// Default 6 hours.
	SnapshotLifetime time.Duration
	// Job are the job options (queue, tenant, retry, timeout...).
	Job pipeline.JobOptions[In, Result]
}

// Settings override the declared output settings for one run; a zero field
// keeps the declared value.
type Settings struct {
	Format       Format           `json:"format,omitempty"`
	Compression  blob.Compression `json:"compression,omitempty"`
	PageRows     int              `json:"pageRows,omitempty"`
	RowGroupRows int              `json:"rowGroupRows,omitempty"`
}

// Source is what one run reads: a Table, or a Query. Exactly one of the two.
type Source struct {
	// Table is a table, view or materialized view: pg.Relation{Schema:
	// "sales", Name: "Order Items"}, or pg.ParseRelation of its SQL
	// spelling. Its Schema defaults to the search path.
	Table pg.Relation
	// Columns are the exported columns, in file order. Nil: the declared
	// Options.Columns.
	Columns []string
	// Where is an SQL filter on the table, placed in parentheses after
	// WHERE. It is SQL, written by the application or its operator, never
	// built from end-user input: values go in Args as $1, $2...; pipe
	// itself never interpolates a value.
	Where string
	// Args are the values of Where's (or Query's) parameters.
	Args []any
	// Query is a SELECT the application supplies instead of a table; each
	// page reads it as a subquery. Its columns must have distinct names.
	Query string
	// Name names the query in the manifest. Required with Query.
	Name string
	// Key is the ordering key, its columns unique together and never NULL.
	// Default for a table: its primary key (a table without one is refused
	// with X_EXPORT_KEY_INVALID). Required with Query. None in Snapshot
	// order, which reads no key.
	Key []string
	// Order is how the run walks the source: ByKey (the default) or, for a
	// table or materialized view, Snapshot.
	Order Order
}

// Order is how a run walks its source.
type Order string

const (
	// ByKey reads keyset pages: PageRows rows after the last key, in the
	// key's order, each page in its own transaction. A row updated during
	// the run is exported once, as its page found it. The default ("").
	ByKey Order = "key"
	// Snapshot reads a table (or materialized view) in storage order, in
	// ranges of blocks holding about PageRows rows each, and every page of
	// an attempt in one REPEATABLE READ snapshot held from its first page
	// to its last: a point-in-time export, as pg_dump makes, at the speed
	// of a sequential scan. It needs no key, so a table without one can be
	// exported. The snapshot holds back VACUUM's horizon while the run
	// reads. A run resumed after a crash reads its remaining pages in a new
	// snapshot: a row moved to another block between the two (a non-HOT
	// update) can then be exported twice or not at all; the manifest's
	// Snapshots says how many snapshots the parts were read in.
	Snapshot Order = "snapshot"
)

// Sink is where a run writes: <Prefix>/<runId>/ in Bucket.
type Sink struct {
	// Bucket is the bucket's URL (see blob.Open): s3://, gs://, azblob://,
	// file://, mem:// or a local directory.
	Bucket string
	// Prefix is the key prefix. Empty: the bucket's root. A prefix that
	// could leave it ("../", an absolute path, an empty segment) is refused
	// with X_BLOB_KEY_INVALID before anything is written.
	Prefix string
}

// Format names a file format.
type Format string

// The formats an export writes.
const (
	CSV     Format = "csv"
	NDJSON  Format = "ndjson"
	Parquet Format = "parquet"
)

// Result is what an export run answers.
type Result struct {
	// Rows, Parts and Bytes count the rows exported, the objects written
	// (the manifest aside) and their bytes as stored.
	Rows  int64 `json:"rows"`
	Parts int   `json:"parts"`
	Bytes int64 `json:"bytes"`
	// Bucket is the sink's URL (without credentials) and Manifest the key
	// of the run's manifest in it.
	Bucket   string `json:"bucket"`
	Manifest string `json:"manifest"`
	// Objects are, for a child run of a parallel export, the parts it
	// wrote, in key order; its parent lists them in the manifest, which a
	// child does not write.
	Objects []Part `json:"objects,omitempty"`
}
