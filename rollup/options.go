package rollup

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/pipeline"
)

// Options declare a rollup. Each field's comment gives its default; a fault
// is refused by [New] with X_JOB_ROLLUP_INVALID naming every fault.
type Options[In any] struct {
	// Name is the job's durable name. Required.
	Name string
	// Into is the application's target table: pg.Relation{Name:
	// "likes_per_day"}, or pg.ParseRelation of its SQL spelling. Its Schema
	// defaults to the search path. Required.
	Into pg.Relation
	// Key are the target columns the upsert is on: the bucket's column and
	// the group's columns. A unique index of the target must cover exactly
	// them (checked against the catalog by Verify). Required.
	Key []string
	// Bucket is the series unit, its IANA zone and the target column that
	// holds each bucket's first instant (a timestamptz). Required.
	Bucket Bucket
	// Lookback is how late a row may arrive and still count: each run reads
	// from the first instant of the bucket holding now - Lookback. Required
	// and positive.
	Lookback time.Duration
	// Source is the built-in SQL source: a table, its time column, its
	// group-by columns and the aggregates. Exactly one of Source and Points.
	Source *Source
	// Points is an application's source: it answers the run's points, one a
	// target row, read through the run's transaction. Exactly one of Source
	// and Points.
	Points func(ctx context.Context, q Query[In]) ([]Point, error)
	// Args answers the values of Source.Where's parameters ($1, $2...) for a
	// run. Nil: none.
	Args func(In) []any
	// From answers, for a run that backfills, an instant to read from
	// instead of now - Lookback (still from the first instant of its
	// bucket). The zero time means a normal run. Nil: none, unless In is
	// [Request], whose From it reads.
	From func(In) time.Time
	// AsOf answers, for a run that replays a past instant, the now it runs
	// as of instead of the database clock. The zero time means now. Nil:
	// none, unless In is [Request], whose AsOf it reads.
	AsOf func(In) time.Time
	// Job are the job options (queue, tenant, retry, timeout...). A Verify
	// given here runs after the rollup's own.
	Job pipeline.JobOptions[In, Result]
}

// Bucket is how rows are bucketed: a unit read in an IANA zone, and the
// target column that holds a bucket's first instant.
type Bucket struct {
	// Unit is minute, hour, day, week, month, quarter or year. Required.
	Unit Unit `json:"unit"`
	// Zone is the IANA zone the buckets are read in, such as UTC or
	// America/New_York. Required.
	Zone string `json:"zone"`
	// Column is the target column holding the bucket: a timestamptz (the
	// bucket's first instant), or for day and coarser units a date (the
	// bucket's first local day). Required; it is one of the Key's columns.
	Column string `json:"column"`
}

// Source is the built-in SQL source: pipe generates one statement that
// reads the table from the window's first instant, groups by the columns
// and the bucket, and upserts the aggregates.
type Source struct {
	// Table is the source table (or view); in JSON, as SQL writes it.
	// Required.
	Table pg.Relation `json:"table"`
	// Time is its timestamptz column; an index on it keeps a run's cost to
	// the window's rows. Required.
	Time string `json:"time"`
	// GroupBy are source columns each run groups by, written to the target
	// columns of the same names; with the bucket's column they are the Key.
	// Nil: one row a bucket.
	GroupBy []string `json:"groupBy,omitempty"`
	// Aggregates are the values written. At least one.
	Aggregates []Aggregate `json:"aggregates"`
	// Where is an SQL filter on the source's rows, in parentheses after
	// WHERE. It is SQL the application declares, never built from end-user
	// input: values go in Options.Args as $1, $2... Empty: every row.
	Where string `json:"where,omitempty"`
}

// Func names an aggregate function.
type Func string

// The aggregates of the SQL source.
const (
	Count Func = "count"
	Sum   Func = "sum"
	Min   Func = "min"
	Max   Func = "max"
	Avg   Func = "avg"
)

// Funcs answers every aggregate function.
func Funcs() []Func { return []Func{Count, Sum, Min, Max, Avg} }

// Aggregate is one value of the SQL source.
type Aggregate struct {
	// Func is count, sum, min, max or avg. Required.
	Func Func `json:"func"`
	// Column is the source column aggregated. Empty only with count, which
	// then counts rows (count(*)).
	Column string `json:"column,omitempty"`
	// Into is the target column written. Required.
	Into string `json:"into"`
}

// Query is what a Points function is asked for one run.
type Query[In any] struct {
	// Tx is the run's transaction: read through it; the upsert commits with
	// it, so a failed run writes nothing.
	Tx pgx.Tx
	// Since is the first instant to read, the first instant of a bucket;
	// Now is the database clock (pipe.now()) when the run began.
	Since, Now time.Time
	// Unit and Location are the declared bucket's.
	Unit     Unit
	Location *time.Location
	// Input is the run's input.
	Input In
}

// Point is one target row a Points function answers.
type Point struct {
	// Bucket is the first instant of the point's bucket (see [Unit.Start]),
	// at or after the run's Since.
	Bucket time.Time
	// Values are the point's other target columns by name: the Key's other
	// columns and the values. Every point of a run names the same columns.
	// They are sent as JSON and read with each column's type, so use values
	// whose JSON form the type reads: numbers, strings, uuids, booleans,
	// times.
	Values map[string]any
}

// Request is the input of the rollups declared without Go (pipe.json,
// `pipe rollup run`): nothing for a normal run, or From for a backfill.
type Request struct {
	// From, when set, reads from the bucket holding it instead of
	// now - lookback: a backfill that repairs buckets older than the
	// lookback.
	From time.Time `json:"from,omitzero"`
	// AsOf, when set, is the run's now instead of the database clock: a
	// replay of the run a past instant would have made, reading from the
	// bucket holding AsOf - lookback (Result.Now is AsOf). Only this run's
	// clock moves; the source is still read whole from there on, so no
	// bucket is written from part of its rows.
	AsOf time.Time `json:"asOf,omitzero"`
}

// Result is what a rollup run answers.
type Result struct {
	// Since is the first instant read and Now the database clock the run
	// read by.
	Since time.Time `json:"since"`
	Now   time.Time `json:"now"`
	// Rows counts the source rows read (the SQL source) or the points
	// answered (a Points function).
	Rows int64 `json:"rows"`
	// Buckets counts the target rows the run computed, and Written those it
	// inserted or changed: a re-run over the same rows writes none.
	Buckets int64 `json:"buckets"`
	Written int64 `json:"written"`
}
