// Package storebench is `pipe bench store`: the job store at volume (issue
// 26). It makes a scratch database on the server it is pointed at and
// fills it by COPY straight into pipe.runs and pipe.run_events — finished
// runs spread evenly over the 14 (or --days) whole UTC days before today (3% dead or
// failed), open runs enqueued within the hour, 20 jobs in 10 queues, 50
// tenants (10 with no runs), a journal row per four runs — and measures
// there, printing each figure as it completes:
//
//	fill        the COPY's time and rows a second, and the VACUUM (ANALYZE) after
//	size        the runs, their indexes and the journal on disk; bytes per finished run; runs_open
//	reads       p50/p99 of every operator read pipeline.Admin serves the CLI, console and MCP
//	            (list by each filter, the next and previous page, show, queue stats,
//	            counters), each with the scans of its plan
//	pages       p50/p99 of every console page (and the jobs page's filters) over HTTP,
//	            timed to the document's last byte
//	throughput  EnqueueMany and work-down of no-op runs with the worker `pipe worker`
//	            ships, and its claim latency, in the full store and in a second, empty
//	            scratch database, in rounds that take turns (the best round counts)
//	drop        pipeline.Maintain dropping the oldest day past retention while a stream
//	            of enqueues and claims runs, and those statements' latency meanwhile
//
// Both scratch databases are dropped after, whatever happened. Speed
// belongs to the figures, never to test assertions.
package storebench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
)

// Options configure [Run]. A zero field takes the default its comment
// names.
type Options struct {
	// Finished is how many finished runs the store holds. Default
	// 10,000,000.
	Finished int
	// Days is how many whole UTC days before today the finished runs
	// spread over, one partition each; 2 to 14. Default 14.
	Days int
	// Open is how many open runs it holds. Default 100,000.
	Open int
	// Jobs is how many runs the throughput figure enqueues and works down
	// in each store. Default 100,000.
	Jobs int
	// Rounds is how many times the throughput figure runs in each store,
	// the stores in turn; the best round is the figure. Default 2.
	Rounds int
	// Samples is how many timed calls each read makes. Default 50.
	Samples int
	// Streams is how many COPY streams fill the store. Default 2.
	Streams int
	// Logger receives the bench workers' events. Default none.
	Logger *slog.Logger
}

func (o Options) withDefaults() (Options, error) {
	o.Finished = orInt(o.Finished, 10_000_000)
	o.Days = orInt(o.Days, spanDays)
	o.Open = orInt(o.Open, 100_000)
	o.Jobs = orInt(o.Jobs, 100_000)
	o.Rounds = orInt(o.Rounds, 2)
	o.Samples = orInt(o.Samples, 50)
	o.Streams = orInt(o.Streams, 2)
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Finished < 1000 || o.Open < 1 || o.Jobs < 1 || o.Rounds < 1 || o.Samples < 1 || o.Streams < 1 || o.Days < 2 || o.Days > spanDays {
		return o, errors.New("store bench: --finished must be 1000 or more, --days 2 to 14, --open, --jobs, --rounds and --samples 1 or more")
	}
	return o, nil
}

func orInt(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// Results are every figure of one run.
type Results struct {
	Server string `json:"server"`
	// Databases are the scratch databases, dropped after.
	Databases []string `json:"databases"`
	Finished  int      `json:"finished"`
	Open      int      `json:"open"`
	// From is the first day of the finished runs; they end before Today.
	From  string `json:"from"`
	Today string `json:"today"`
	Fill  Fill   `json:"fill"`
	Sizes Sizes  `json:"sizes"`
	// Reads are the operator reads; PlansFrom says where their plans come
	// from.
	Reads     []Read `json:"reads"`
	PlansFrom string `json:"plansFrom"`
	// Pages are the console's pages over HTTP on loopback.
	Pages      []Page     `json:"pages"`
	Throughput Throughput `json:"throughput"`
	Drop       Drop       `json:"drop"`
}

// plansFrom is how the reads' plans were read.
const plansFrom = "EXPLAIN (FORMAT JSON) of each statement pipeline.Admin sent for the last sample, " +
	"captured by a recording pipeline.DB, with its arguments"

// Run makes the scratch databases on the server url reaches (its user
// needs CREATEDB), fills and measures them, printing each figure to out as
// it completes, and drops them. On an error it answers the figures
// measured so far with it.
func Run(ctx context.Context, url string, opts Options, out io.Writer) (res Results, err error) {
	o, err := opts.withDefaults()
	if err != nil {
		return res, err
	}
	res.Finished, res.Open, res.PlansFrom = o.Finished, o.Open, plansFrom
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return res, errors.New("store bench: the database URL does not parse")
	}
	admin, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return res, fmt.Errorf("store bench: connect: %w", err)
	}
	defer admin.Close(context.WithoutCancel(ctx))
	if err := admin.QueryRow(ctx, `select current_setting('server_version')`).Scan(&res.Server); err != nil {
		return res, err
	}
	tag := scratchTag()
	res.Databases = []string{scratchPrefix + tag + "_full", scratchPrefix + tag + "_empty"}
	full, err := createScratch(ctx, admin, url, res.Databases[0])
	if err != nil {
		return res, err
	}
	defer func() { err = errors.Join(err, full.drop(admin)) }()
	plan, err := planFill(ctx, full, o)
	if err != nil {
		return res, err
	}
	res.From, res.Today = plan.from.Format(time.DateOnly), plan.from.Add(plan.span).Format(time.DateOnly)
	printHeader(out, res, o)

	var p *picks
	if res.Fill, p, err = fill(ctx, full, plan, o.Streams); err != nil {
		return res, err
	}
	checkpoint(ctx, full)
	printFill(out, res.Fill)
	if res.Sizes, err = measureSizes(ctx, full.pool, res.Fill.Finished); err != nil {
		return res, err
	}
	printSizes(out, res.Sizes)
	if res.Reads, err = measureReads(ctx, full, p, plan, o.Samples); err != nil {
		return res, err
	}
	printReads(out, res.Reads, o.Samples)
	if res.Pages, err = measurePages(ctx, full, p, o.Samples); err != nil {
		return res, err
	}
	printPages(out, res.Pages, o.Samples)

	empty, err := createScratch(ctx, admin, url, res.Databases[1])
	if err != nil {
		return res, err
	}
	defer func() { err = errors.Join(err, empty.drop(admin)) }()
	if res.Throughput, err = throughput(ctx, full, empty, o.Jobs, o.Rounds, o.Logger); err != nil {
		return res, err
	}
	printThroughput(out, res.Throughput)

	if res.Drop, err = dropDay(ctx, full, plan.days, o.Logger); err != nil {
		return res, err
	}
	printDrop(out, res.Drop)
	return res, nil
}

// planFill answers the fill's plan: the finished runs over the o.Days
// whole days before today by s's clock, the open ones within the hour.
func planFill(ctx context.Context, s *scratch, o Options) (fillPlan, error) {
	var now time.Time
	if err := s.pool.QueryRow(ctx, `select pipe.now()`).Scan(&now); err != nil {
		return fillPlan{}, err
	}
	today := now.UTC().Truncate(24 * time.Hour)
	return fillPlan{finished: o.Finished, open: o.Open, days: o.Days, from: today.AddDate(0, 0, -o.Days),
		span: time.Duration(o.Days) * 24 * time.Hour, now: now}, nil
}

// checkpoint writes the fill's dirty pages out before the measures, so
// that they do not pay for it; a user who may not CHECKPOINT skips it.
func checkpoint(ctx context.Context, s *scratch) {
	_, _ = s.pool.Exec(ctx, `checkpoint`)
}
