package project

// File is a project file, pipe.json: the rollups, the view refreshes and the
// tasks that enqueue them, declared without Go. pipe.schema.json beside this
// package is its JSON Schema, generated from these types.
type File struct {
	// Schema is the JSON Schema the file follows, for editors: the path or
	// URL of pipe.schema.json. pipe does not read it.
	Schema string `json:"$schema,omitempty"`
	// Rollups are the time-bucketed aggregates kept in the application's
	// tables.
	Rollups []Rollup `json:"rollups,omitempty"`
	// Views are the materialized-view refreshes.
	Views []View `json:"views,omitempty"`
	// Tasks are the schedules that enqueue rollups and refreshes.
	Tasks []Task `json:"tasks,omitempty"`
	// Outbox is the outbox relay the worker runs. Default none.
	Outbox *Outbox `json:"outbox,omitempty"`
	// Backfills are passes over a table's rows, a batch at a time.
	Backfills []Backfill `json:"backfills,omitempty"`
}

// Rollup declares one rollup: each run re-reads the source from the first
// instant of the bucket holding now - lookback and upserts every bucket in
// one statement.
type Rollup struct {
	// Name is the job's durable name, unique among the file's rollups and
	// views.
	Name string `json:"name" jsonschema:"minLength=1"`
	// Into is the target table as SQL names it: table, schema.table or
	// "Mixed Case"; a bare name is folded to lower case.
	Into string `json:"into" jsonschema:"minLength=1"`
	// Key are the target columns the upsert is on: the group-by columns and
	// the bucket's column. A unique index on the target must cover exactly
	// them.
	Key []string `json:"key" jsonschema:"minItems=1"`
	// Lookback is how late a row may arrive and still count, such as 2d or
	// 36h (units ms, s, m, h, d, w).
	Lookback string `json:"lookback" jsonschema:"pattern=^([0-9]+(ms|s|m|h|d|w))+$"`
	// Bucket is the series unit, its IANA zone and the target column that
	// holds a bucket's first instant.
	Bucket Bucket `json:"bucket"`
	// Source is the table read, its time column, the group-by columns and
	// the aggregates.
	Source Source `json:"source"`
	// Queue is the queue the rollup's runs go in. Default: default.
	Queue string `json:"queue,omitempty"`
	// Attempts is how many attempts a run gets. Default 3.
	Attempts int `json:"attempts,omitempty" jsonschema:"minimum=1"`
	// Timeout caps one attempt, such as 10m. Default none.
	Timeout string `json:"timeout,omitempty" jsonschema:"pattern=^([0-9]+(ms|s|m|h|d|w))+$"`
}

// Bucket is how a rollup's rows are bucketed.
type Bucket struct {
	// Unit is the bucket's length. A week starts on Monday.
	Unit string `json:"unit" jsonschema:"enum=minute,enum=hour,enum=day,enum=week,enum=month,enum=quarter,enum=year"`
	// Zone is the IANA zone the buckets are read in, such as UTC or
	// America/New_York.
	Zone string `json:"zone" jsonschema:"minLength=1"`
	// Column is the target column that holds a bucket: a timestamptz (its
	// first instant), or for day and coarser units a date (its first local
	// day); it is one of the key's columns.
	Column string `json:"column" jsonschema:"minLength=1"`
}

// Source is a rollup's SQL source.
type Source struct {
	// Table is the source table or view as SQL names it: table,
	// schema.table or "Mixed Case"; a bare name is folded to lower case.
	Table string `json:"table" jsonschema:"minLength=1"`
	// Time is its timestamptz column; index it to keep a run's cost to the
	// window's rows.
	Time string `json:"time" jsonschema:"minLength=1"`
	// GroupBy are source columns grouped by, each written to the target
	// column of the same name.
	GroupBy []string `json:"groupBy,omitempty"`
	// Aggregates are the values written.
	Aggregates []Aggregate `json:"aggregates" jsonschema:"minItems=1"`
	// Where is an SQL filter on the source's rows, without parameters.
	Where string `json:"where,omitempty"`
}

// Aggregate is one value of a rollup.
type Aggregate struct {
	// Func is the aggregate function.
	Func string `json:"func" jsonschema:"enum=count,enum=sum,enum=min,enum=max,enum=avg"`
	// Column is the source column aggregated; without one, count counts
	// rows.
	Column string `json:"column,omitempty"`
	// Into is the target column written.
	Into string `json:"into" jsonschema:"minLength=1"`
}

// View declares one materialized-view refresh.
type View struct {
	// Name is the job's durable name, unique among the file's rollups and
	// views.
	Name string `json:"name" jsonschema:"minLength=1"`
	// View is the materialized view as SQL names it: view, schema.view or
	// "Mixed Case"; a bare name is folded to lower case.
	View string `json:"view" jsonschema:"minLength=1"`
	// Concurrently refreshes without locking readers out; the view needs a
	// unique index.
	Concurrently bool `json:"concurrently,omitempty"`
	// Queue is the queue the refresh's runs go in. Default: default.
	Queue string `json:"queue,omitempty"`
	// Attempts is how many attempts a run gets. Default 3.
	Attempts int `json:"attempts,omitempty" jsonschema:"minimum=1"`
	// Timeout caps one attempt, such as 10m. Default none.
	Timeout string `json:"timeout,omitempty" jsonschema:"pattern=^([0-9]+(ms|s|m|h|d|w))+$"`
}

// Task is a schedule: a cron expression read in an IANA zone, and the
// rollups and refreshes each occurrence enqueues.
type Task struct {
	// Name is the task's durable name.
	Name string `json:"name" jsonschema:"minLength=1"`
	// Cron is a five-field cron expression, or @hourly, @daily, @weekly,
	// @monthly, @yearly.
	Cron string `json:"cron" jsonschema:"minLength=1"`
	// Zone is the IANA zone the cron expression is read in.
	Zone string `json:"zone" jsonschema:"minLength=1"`
	// Run names the rollups and views each occurrence enqueues. A run still
	// live from the last occurrence is not enqueued again.
	Run []string `json:"run" jsonschema:"minItems=1"`
	// CatchUp is what fires for occurrences missed while no scheduler ran.
	// Default skip: the latest missed one, once.
	CatchUp string `json:"catchUp,omitempty" jsonschema:"enum=skip,enum=run-once,enum=run-all"`
}
