package importrows

import (
	"context"

	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/pipeline"
)

// Defaults of [Options].
const (
	DefaultPageBytes      = 8 << 20
	DefaultMaxRecordBytes = 64 << 10
	DefaultMaxRowErrors   = 1000
	DefaultBatch          = 500
	DefaultRangeBytes     = 32 << 20
)

// Options declare an import. Each field's comment gives its default; a fault
// is refused by [New] with X_JOB_DECLARATION_INVALID naming every fault.
type Options[In any] struct {
	// Name is the job's durable name. Required.
	Name string
	// Check refuses an input before the run reads anything (its error
	// fails the attempt; give it a terminal code). Nil: no check.
	Check func(In) error
	// Source answers the file a run imports. Required.
	Source func(In) Source
	// Columns are the declared columns: a CSV header must name exactly these,
	// in any order; NDJSON keys must be among them; a Parquet file's columns
	// must be exactly these. Nil with Into: the file's own columns (the CSV
	// header, the Parquet schema, or the table's columns for NDJSON), each
	// checked against the table. Nil with Handle is refused.
	Columns []string
	// ColumnsOf answers the columns per input instead of Columns (the CLI
	// uses it). At most one of Columns and ColumnsOf.
	ColumnsOf func(In) []string
	// Types maps a column to its type for Handle (PostgreSQL spellings:
	// "bigint", "uuid", "timestamptz", "numeric(10,2)", "text[]"...). Default
	// "text". With Into, types come from the table and Types is refused.
	Types map[string]string
	// Into names the table the built-in writer fills: each page is COPYed
	// into a staging table and upserted on Table.Key (plain insert without
	// a key), committed with the page's checkpoint in one transaction, so
	// each page lands exactly once. Exactly one of Into and Handle.
	Into func(In) Table
	// Handle receives the accepted rows of each page in batches of Batch
	// rows. It is at-least-once per page: a page that dies after Handle and
	// before its checkpoint runs again, so write idempotently (upsert).
	Handle func(ctx context.Context, b Batch[In]) error
	// Errors answers where refused rows are reported:
	// <Prefix>/<runId>/errors-NNNNN.ndjson in Bucket. Required.
	Errors func(In) Sink
	// PageBytes is the size of one page, the unit of a step and its
	// checkpoint. Default 8 MiB; at least 64 KiB.
	PageBytes int64
	// MaxRecordBytes refuses a record longer than this with
	// X_IMPORT_RECORD_TOO_LARGE (usually an unclosed quote). Default 64 KiB.
	MaxRecordBytes int
	// MaxRowErrors is how many refused rows a run tolerates; one more fails
	// it with X_IMPORT_TOO_MANY_ERRORS. Nil means 1000; a pointer to 0
	// fails the run at the first refused row.
	MaxRowErrors *int
	// Batch is how many rows one Handle call receives. Default 500.
	Batch int
	// Decoding bounds what decoding a file may take: the inflation of a
	// compressed file, a zstd window, a Parquet page's memory. Each zero
	// field takes its default (see [DecodeLimits]).
	Decoding DecodeLimits
	// Parallel is how many ranges a text file (CSV or NDJSON, plain UTF-8)
	// or row groups of a Parquet file are split into, each imported by a
	// child run of its own on whichever worker claims it, the parent run
	// waiting for them and answering one result (see parallel.go). A file
	// is split only into ranges of at least RangeBytes. 0 or 1: one run
	// reads the whole file (the default). More than 1 needs the range job:
	// declare with [NewJobs] and register both jobs; [New] refuses it. An
	// import into a table only (a Handle reads the file in one run).
	Parallel int
	// RangeBytes is the least a range of a parallel import holds. Default
	// 32 MiB.
	RangeBytes int64
	// LimitsOf answers per-run overrides of PageBytes, MaxRecordBytes,
	// MaxRowErrors, Parallel, RangeBytes and Decoding (the CLI passes its
	// flags through it). Nil: none.
	LimitsOf func(In) Limits
	// Job are the job options (queue, tenant, retry, timeout...).
	Job pipeline.JobOptions[In, Result]
}

// Limits override the declared limits for one run; a zero field (nil for
// MaxRowErrors) keeps the declared value.
type Limits struct {
	PageBytes      int64 `json:"pageBytes,omitempty"`
	MaxRecordBytes int   `json:"maxRecordBytes,omitempty"`
	MaxRowErrors   *int  `json:"maxRowErrors,omitempty"`
	// Parallel and RangeBytes are as in [Options]; Parallel 1 turns a
	// declared parallel import off for the run.
	Parallel   int   `json:"parallel,omitempty"`
	RangeBytes int64 `json:"rangeBytes,omitempty"`
	DecodeLimits
}

// Source is the file one run imports.
type Source struct {
	// Bucket is the bucket's URL (see blob.Open): s3://, gs://, azblob://,
	// file://, mem:// or a local directory.
	Bucket string
	// Key is the object's key in Bucket.
	Key string
	// Format is csv, ndjson or parquet. Default: from the key's extension
	// (.csv, .tsv, .ndjson, .jsonl, .parquet, before any .gz or .zst).
	Format Format
	// Compression is auto (default: detected from the magic bytes), none,
	// gzip or zstd.
	Compression string
	// Encoding is the text encoding of csv and ndjson: utf-8 (default; a
	// BOM reads as nothing), utf-16 (with a BOM), utf-16le, utf-16be,
	// latin-1 or windows-1252.
	Encoding string
	// Delimiter separates CSV fields. Default ',' (tab for .tsv).
	Delimiter rune
	// Quotes is how CSV quotes are read: QuotesStrict (the default, "")
	// refuses a record with a quote inside an unquoted field as
	// X_IMPORT_RECORD_INVALID; QuotesLenient keeps such a quote as part of
	// the value (37°36'37.8"N), as Python's csv and DuckDB do. In both, a
	// field that starts with a quote is quoted by RFC 4180.
	Quotes Quotes
	// NoHeader says a CSV file has no header line: its first record is
	// data, and the import's declared columns (required) name the file's
	// columns in order, as COPY ... (CSV) reads a file without HEADER.
	// Default false: the first record names the columns.
	NoHeader bool
	// Settings are the DateStyle, TimeZone and IntervalStyle the file's
	// values are read under, by pipe and by PostgreSQL alike; an empty one
	// is the target database's default. They apply to an import Into a
	// table (a Handle's values are read by pipe's own rules, in UTC).
	Settings Settings
}

// Quotes names how CSV quotes are read; see [Source].
type Quotes string

// The ways of reading CSV quotes.
const (
	QuotesStrict  Quotes = "strict"
	QuotesLenient Quotes = "lenient"
)

// Format names a file format.
type Format string

// The formats an import reads.
const (
	CSV     Format = "csv"
	NDJSON  Format = "ndjson"
	Parquet Format = "parquet"
)

// Table is the target of the built-in table writer.
type Table struct {
	// Relation is the table: pg.Relation{Schema: "sales", Name: "Order
	// Items"}, or pg.ParseRelation of its SQL spelling. Its Schema
	// defaults to the search path. Required.
	Relation pg.Relation
	// Key are the conflict columns of the upsert; a unique index or
	// constraint on exactly these columns must exist. Empty: plain insert.
	Key []string
}

// Sink is where refused rows are reported.
type Sink struct {
	// Bucket is the bucket's URL.
	Bucket string
	// Prefix is the key prefix; the report goes under <Prefix>/<runId>/.
	Prefix string
}

// Batch is one call of a Handle: accepted rows of one page.
type Batch[In any] struct {
	// Input is the run's input.
	Input In
	// Page is the page's index from 0.
	Page int
	// Columns are the columns of each row, in declared order.
	Columns []string
	// Rows are the accepted, coerced rows: column name to value (nil for
	// NULL; int64, float64, string (text and numeric), bool, uuid.UUID,
	// time.Time, json.RawMessage, []byte, []any).
	Rows []Row
}

// Row is one accepted row.
type Row map[string]any

// Result is what an import run answers.
type Result struct {
	// Rows counts rows written; Refused counts rows refused (each one is in
	// the error report).
	Rows    int64 `json:"rows"`
	Refused int64 `json:"refused"`
	// BareQuotes counts the refused CSV records whose fault is a quote
	// inside an unquoted field (rule bare-quote in the report): lenient
	// quotes (Source.Quotes) would read them.
	BareQuotes int64 `json:"bareQuotes,omitempty"`
	// Bytes counts the bytes read: the file's size (decoded size for a
	// compressed or re-encoded text file).
	Bytes int64 `json:"bytes"`
	// Pages counts the page steps.
	Pages int `json:"pages"`
	// ErrorBucket and ErrorPrefix say where the error report's parts are:
	// the keys under ErrorPrefix (<Prefix>/<runId>/) in ErrorBucket. A run
	// with no refused row writes no part.
	ErrorBucket string `json:"errorBucket"`
	ErrorPrefix string `json:"errorPrefix"`
}
