// Package rollupbench is `pipe bench rollup`: a rollup's run over a source
// of 1,000,000 and then 10,000,000 rows at the same density (a year's worth
// at the larger size), to show that a run's cost follows the lookback
// window, not the table.
package rollupbench

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/rollup"
)

// The bench's tables and job, its own so that it leaves the database's
// other rows alone; the tables are dropped after.
const (
	srcTable    = "pipe_bench_rollup_src"
	targetTable = "pipe_bench_rollup_daily"
	jobName     = "pipe.bench.rollup"
	ddl         = `drop table if exists pipe_bench_rollup_src, pipe_bench_rollup_daily;
create table pipe_bench_rollup_src (org_id int not null, amount int not null, created_at timestamptz not null);
create index pipe_bench_rollup_src_created_at on pipe_bench_rollup_src (created_at);
create table pipe_bench_rollup_daily (org_id int, day timestamptz, orders bigint, revenue bigint, primary key (org_id, day))`
	// load inserts $2 rows, the i-th stamped $3 + i * $4 seconds before
	// pipe.now(): one INSERT ... SELECT, generated server-side.
	load = `insert into pipe_bench_rollup_src (org_id, amount, created_at)
select i % 50, i % 1000, pipe.now() - ($3::float8 + i * $4::float8) * interval '1 second'
  from generate_series($1::int8, $2::int8) i`
)

// Options configure [Run]. Each field's comment gives its default.
type Options struct {
	// Rows is the source's size at the second figure. Default 10,000,000.
	Rows int64
	// First is its size at the first figure. Default Rows / 10.
	First int64
	// Span is how much time Rows cover. Default 365 days.
	Span time.Duration
	// Lookback is the rollup's. Default 48 h.
	Lookback time.Duration
	// Runs is how many runs each figure times (the median is the figure).
	// Default 3.
	Runs int
	// Zone is the bucket's zone. Default America/New_York.
	Zone string
	// Logger receives the bench worker's warnings. Default none.
	Logger *slog.Logger
}

func (o Options) withDefaults() Options {
	if o.Rows == 0 {
		o.Rows = 10_000_000
	}
	if o.First == 0 {
		o.First = o.Rows / 10
	}
	if o.Span == 0 {
		o.Span = 365 * 24 * time.Hour
	}
	if o.Lookback == 0 {
		o.Lookback = 48 * time.Hour
	}
	if o.Runs == 0 {
		o.Runs = 3
	}
	if o.Zone == "" {
		o.Zone = "America/New_York"
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// Figure is one table size's runs.
type Figure struct {
	TableRows int64   `json:"tableRows"`
	LoadMs    float64 `json:"loadMs"`
	// RunMs is the median run from its claim to its settle (the window, the
	// read, the grouping, the upsert and the journal writes), on the database
	// clock; WallMs the median from enqueue to settle, the worker's pickup
	// included. AllRunsMs are every run's RunMs.
	RunMs     float64   `json:"runMs"`
	WallMs    float64   `json:"wallMs"`
	AllRunsMs []float64 `json:"allRunsMs"`
	RowsRead  int64     `json:"rowsRead"`
	Buckets   int64     `json:"buckets"`
	// Scan is how the plan reads the source: the node and its index.
	Scan string `json:"scan"`
}

// Results are the two figures.
type Results struct {
	Figures []Figure `json:"figures"`
	// Ratio is the larger table's median run over the smaller's.
	Ratio float64 `json:"ratio"`
}

// Run loads First rows, times the rollup, loads the rest to Rows (older
// rows, at the same density), times it again, prints one line per figure
// and drops its tables.
func Run(ctx context.Context, pool *pgxpool.Pool, o Options, out io.Writer) (Results, error) {
	o = o.withDefaults()
	if o.First < 1 || o.First > o.Rows || o.Runs < 1 || o.Span <= 0 || o.Lookback <= 0 {
		return Results{}, fmt.Errorf("rollup bench: --first must be 1 to --rows, --runs 1 or more, the span and the lookback positive")
	}
	defer cleanup(pool)
	if err := cleanJobs(ctx, pool); err != nil {
		return Results{}, err
	}
	if _, err := pool.Exec(ctx, ddl); err != nil {
		return Results{}, err
	}
	b, err := newBench(pool, o)
	if err != nil {
		return Results{}, err
	}
	var res Results
	step := o.Span.Seconds() / float64(o.Rows) // seconds between rows
	for i, upTo := range []int64{o.First, o.Rows} {
		from := int64(1)
		if i == 1 {
			from = o.First + 1
		}
		fig, err := b.figure(ctx, from, upTo, step)
		if err != nil {
			return res, err
		}
		fmt.Fprintf(out, "rollup at %d rows: run %.1f ms claim to settle, %.1f ms enqueue to settle (medians of %d), read %d rows into %d buckets, %s; load %.1f s\n",
			fig.TableRows, fig.RunMs, fig.WallMs, o.Runs, fig.RowsRead, fig.Buckets, fig.Scan, fig.LoadMs/1000)
		res.Figures = append(res.Figures, fig)
	}
	res.Ratio = res.Figures[1].RunMs / res.Figures[0].RunMs
	fmt.Fprintf(out, "rollup: %dx the rows, %.2fx the run time (lookback %s, day buckets in %s)\n",
		o.Rows/o.First, res.Ratio, o.Lookback, o.Zone)
	return res, nil
}

// bench is the declared job and its worker.
type bench struct {
	pool *pgxpool.Pool
	o    Options
	opts rollup.Options[rollup.Request]
	job  *pipeline.Job[rollup.Request, rollup.Result]
}

func newBench(pool *pgxpool.Pool, o Options) (*bench, error) {
	opts := rollup.Options[rollup.Request]{
		Name: jobName, Into: targetTable, Key: []string{"org_id", "day"}, Lookback: o.Lookback,
		Bucket: rollup.Bucket{Unit: rollup.Day, Zone: o.Zone, Column: "day"},
		Source: &rollup.Source{Table: srcTable, Time: "created_at", GroupBy: []string{"org_id"}, Aggregates: []rollup.Aggregate{
			{Func: rollup.Count, Into: "orders"}, {Func: rollup.Sum, Column: "amount", Into: "revenue"},
		}},
		Job: pipeline.JobOptions[rollup.Request]{Queue: jobName, Retry: &pipeline.Retry{Attempts: 1}},
	}
	job, err := rollup.New(opts)
	return &bench{pool: pool, o: o, opts: opts, job: job}, err
}

// figure loads rows from..upTo, analyzes, and times Runs runs.
func (b *bench) figure(ctx context.Context, from, upTo int64, step float64) (Figure, error) {
	fig := Figure{TableRows: upTo}
	start := time.Now()
	if _, err := b.pool.Exec(ctx, load, from, upTo, 0, step); err != nil {
		return fig, fmt.Errorf("load: %w", err)
	}
	if _, err := b.pool.Exec(ctx, `analyze `+srcTable); err != nil {
		return fig, err
	}
	fig.LoadMs = ms(time.Since(start))
	var err error
	if fig.Scan, err = b.scan(ctx); err != nil {
		return fig, err
	}
	var walls []float64
	for range b.o.Runs {
		r, run, wall, err := b.runOnce(ctx)
		if err != nil {
			return fig, err
		}
		fig.AllRunsMs, walls = append(fig.AllRunsMs, run), append(walls, wall)
		fig.RowsRead, fig.Buckets = r.Rows, r.Buckets
	}
	fig.RunMs, fig.WallMs = median(fig.AllRunsMs), median(walls)
	return fig, nil
}

func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
