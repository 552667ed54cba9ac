// Package rollupbench is `pipe bench rollup`: a rollup's run over a source
// of 1,000,000 rows beside one over 10,000,000 rows at the same density (a
// year's worth at the larger size), to show that a run's cost follows the
// lookback window, not the table.
package rollupbench

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/rollup"
)

// The bench's tables and jobs, its own so that it leaves the database's
// other rows alone; the tables are dropped after. Each size has a source and
// a target of its own, so that the two sizes' runs alternate under the same
// load on the machine.
const (
	jobPrefix = "pipe.bench.rollup."
	ddl       = `drop table if exists %[1]s, %[2]s;
create table %[1]s (org_id int not null, amount int not null, created_at timestamptz not null);
create index on %[1]s (created_at);
create table %[2]s (org_id int, day timestamptz, orders bigint, revenue bigint, primary key (org_id, day))`
	// load inserts $1 rows, the i-th stamped i * $2 seconds before
	// pipe.now(): one INSERT ... SELECT, generated server-side, newest first.
	load = `insert into %s (org_id, amount, created_at)
select i %% 50, i %% 1000, pipe.now() - (i * $2::float8) * interval '1 second'
  from generate_series(1, $1::int8) i`
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
	// FullMs is one run over the whole table (a backfill from its first
	// row, FullRows rows), the cost of recomputing everything.
	FullMs   float64 `json:"fullMs"`
	FullRows int64   `json:"fullRows"`
	Buckets  int64   `json:"buckets"`
	// Scan is how the plan reads the source: the node and its index.
	Scan string `json:"scan"`
}

// Results are the two figures.
type Results struct {
	Figures []Figure `json:"figures"`
	// Ratio is the larger table's median run over the smaller's.
	Ratio float64 `json:"ratio"`
}

// Run loads a source of First rows and one of Rows rows at the same
// density (the smaller one is the newest First rows of the larger), times
// Runs runs of each size's daily rollup, alternating, prints one line per
// size and drops its tables.
func Run(ctx context.Context, pool *pgxpool.Pool, o Options, out io.Writer) (Results, error) {
	o = o.withDefaults()
	if o.First < 1 || o.First > o.Rows || o.Runs < 1 || o.Span <= 0 || o.Lookback <= 0 {
		return Results{}, fmt.Errorf("rollup bench: --first must be 1 to --rows, --runs 1 or more, the span and the lookback positive")
	}
	step := o.Span.Seconds() / float64(o.Rows) // seconds between rows
	var sizes []*bench
	defer func() { cleanup(pool, sizes) }()
	for _, n := range []int64{o.First, o.Rows} {
		b, err := newBench(pool, o, n)
		if err != nil {
			return Results{}, err
		}
		sizes = append(sizes, b)
		if err := b.load(ctx, step); err != nil {
			return Results{}, err
		}
		fmt.Fprintf(out, "rollup: loaded %d rows in %.1f s\n", n, b.fig.LoadMs/1000)
	}
	for range o.Runs {
		for _, b := range sizes {
			if err := b.runOnce(ctx); err != nil {
				return Results{}, err
			}
		}
	}
	for _, b := range sizes {
		if err := b.full(ctx); err != nil {
			return Results{}, err
		}
	}
	var res Results
	for _, b := range sizes {
		fig := b.figure()
		fmt.Fprintf(out, "rollup at %d rows: run %.1f ms claim to settle, %.1f ms enqueue to settle (medians of %d), read %d rows into %d buckets, %s\n",
			fig.TableRows, fig.RunMs, fig.WallMs, o.Runs, fig.RowsRead, fig.Buckets, fig.Scan)
		fmt.Fprintf(out, "rollup at %d rows, the whole table recomputed (a backfill from the first row): %.1f ms, read %d rows\n",
			fig.TableRows, fig.FullMs, fig.FullRows)
		res.Figures = append(res.Figures, fig)
	}
	res.Ratio = res.Figures[1].RunMs / res.Figures[0].RunMs
	fmt.Fprintf(out, "rollup: %dx the rows, %.2fx the run time (lookback %s, day buckets in %s, runs alternating)\n",
		o.Rows/o.First, res.Ratio, o.Lookback, o.Zone)
	return res, nil
}

// bench is one size: its tables, its declared job and its figure so far.
type bench struct {
	pool        *pgxpool.Pool
	o           Options
	rows        int64
	src, target string
	opts        rollup.Options[rollup.Request]
	job         *pipeline.Job[rollup.Request, rollup.Result]
	fig         Figure
	walls       []float64
}

func newBench(pool *pgxpool.Pool, o Options, rows int64) (*bench, error) {
	b := &bench{pool: pool, o: o, rows: rows, fig: Figure{TableRows: rows},
		src: fmt.Sprintf("pipe_bench_rollup_src_%d", rows), target: fmt.Sprintf("pipe_bench_rollup_daily_%d", rows)}
	b.opts = rollup.Options[rollup.Request]{
		Name: fmt.Sprintf("%s%d", jobPrefix, rows), Into: pg.Relation{Name: b.target}, Key: []string{"org_id", "day"}, Lookback: o.Lookback,
		Bucket: rollup.Bucket{Unit: rollup.Day, Zone: o.Zone, Column: "day"},
		Source: &rollup.Source{Table: pg.Relation{Name: b.src}, Time: "created_at", GroupBy: []string{"org_id"}, Aggregates: []rollup.Aggregate{
			{Func: rollup.Count, Into: "orders"}, {Func: rollup.Sum, Column: "amount", Into: "revenue"},
		}},
		Job: pipeline.JobOptions[rollup.Request, rollup.Result]{Queue: jobPrefix + "queue", Retry: &pipeline.Retry{Attempts: 1}},
	}
	var err error
	b.job, err = rollup.New(rollup.WindowKey, b.opts)
	return b, err
}

// load makes the size's tables, loads its rows, analyzes them and reads the
// plan's scan of the source.
func (b *bench) load(ctx context.Context, step float64) error {
	if err := cleanJobs(ctx, b.pool, b.opts.Name); err != nil {
		return err
	}
	start := time.Now()
	if _, err := b.pool.Exec(ctx, fmt.Sprintf(ddl, b.src, b.target)); err != nil {
		return err
	}
	if _, err := b.pool.Exec(ctx, fmt.Sprintf(load, b.src), b.rows, step); err != nil {
		return fmt.Errorf("load: %w", err)
	}
	if _, err := b.pool.Exec(ctx, `analyze `+b.src); err != nil {
		return err
	}
	b.fig.LoadMs = ms(time.Since(start))
	var err error
	b.fig.Scan, err = b.scan(ctx)
	return err
}

// figure answers the size's medians.
func (b *bench) figure() Figure {
	f := b.fig
	f.RunMs, f.WallMs = median(f.AllRunsMs), median(b.walls)
	return f
}

func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
