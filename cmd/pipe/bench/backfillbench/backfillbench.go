// Package backfillbench measures a backfill pass beside the single UPDATE
// it replaces (`pipe bench backfill`): its speed, the latency of an
// application writing the same table meanwhile, and its memory.
package backfillbench

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Options set the bench.
type Options struct {
	// Rows is the table's size. Default 10,000,000.
	Rows int64
	// WriteEvery is the pause between the application writer's updates.
	// Default 2ms.
	WriteEvery time.Duration
	// Target is the pass's batch target. Default backfill's, 200ms.
	Target time.Duration
	// Logger logs the worker's events. Default none.
	Logger *slog.Logger
}

func (o Options) withDefaults() Options {
	if o.Rows == 0 {
		o.Rows = 10_000_000
	}
	if o.WriteEvery == 0 {
		o.WriteEvery = 2 * time.Millisecond
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// Figure is one way of setting every row: its time, and the application's
// write latency meanwhile.
type Figure struct {
	What       string  `json:"what"`
	Ms         float64 `json:"ms"`
	RowsPerSec float64 `json:"rowsPerSec"`
	Writes     int     `json:"writes"`
	WriteP50Ms float64 `json:"writeP50Ms"`
	WriteP99Ms float64 `json:"writeP99Ms"`
	WriteMaxMs float64 `json:"writeMaxMs"`
	// PeakRSSMB is the process's peak resident memory over its own at the
	// start, during the pass (0 for the UPDATE, which runs in the server).
	PeakRSSMB float64 `json:"peakRssMb,omitempty"`
}

// Results are the figures side by side, and their ratios.
type Results struct {
	Rows    int64    `json:"rows"`
	Figures []Figure `json:"figures"`
	// Speed is the pass's rows a second over the single UPDATE's.
	Speed float64 `json:"speed"`
	// SmallRSSMB is the pass's peak memory over a table a tenth the size.
	SmallRSSMB float64 `json:"smallPeakRssMb"`
}

// Run loads a table of Rows rows and sets one column from another twice —
// with one UPDATE, then with a backfill pass — while an application writer
// updates random rows of the table, then runs the pass once more over a
// table a tenth the size for its memory. It drops its tables after.
func Run(ctx context.Context, pool *pgxpool.Pool, o Options, out io.Writer) (Results, error) {
	o = o.withDefaults()
	if o.Rows < 10 {
		return Results{}, fmt.Errorf("backfill bench: --rows must be 10 or more")
	}
	res := Results{Rows: o.Rows}
	defer drop(pool)
	if err := load(ctx, pool, o.Rows); err != nil {
		return res, err
	}
	fmt.Fprintf(out, "backfill bench: %d rows, set b (then c) = a * 2, an app writer updating random rows\n", o.Rows)
	single, err := measure(ctx, pool, o, "single UPDATE", func(ctx context.Context) error {
		_, err := pool.Exec(ctx, `update pipe_bench_backfill set b = a * 2`)
		return err
	})
	if err != nil {
		return res, err
	}
	print(out, single)
	if _, err := pool.Exec(ctx, `vacuum pipe_bench_backfill`); err != nil {
		return res, err
	}
	pass, err := measure(ctx, pool, o, "backfill pass", func(ctx context.Context) error { return runPass(ctx, pool, o) })
	if err != nil {
		return res, err
	}
	print(out, pass)
	res.Figures, res.Speed = []Figure{single, pass}, single.Ms/pass.Ms
	if res.SmallRSSMB, err = small(ctx, pool, o); err != nil {
		return res, err
	}
	fmt.Fprintf(out, "pass speed %.2fx the single UPDATE's; app write p99 %.1f ms beside %.1f ms; pass peak RSS %.1f MB at %d rows, %.1f MB at %d\n",
		res.Speed, pass.WriteP99Ms, single.WriteP99Ms, pass.PeakRSSMB, o.Rows, res.SmallRSSMB, o.Rows/10)
	return res, nil
}

func print(out io.Writer, f Figure) {
	fmt.Fprintf(out, "%-14s %9.0f ms  %10.0f rows/s  app writes %d: p50 %.1f ms  p99 %.1f ms  max %.1f ms  peak RSS +%.1f MB\n",
		f.What, f.Ms, f.RowsPerSec, f.Writes, f.WriteP50Ms, f.WriteP99Ms, f.WriteMaxMs, f.PeakRSSMB)
}

// small runs the pass alone over a table a tenth the size: its peak memory.
func small(ctx context.Context, pool *pgxpool.Pool, o Options) (float64, error) {
	if err := load(ctx, pool, o.Rows/10); err != nil {
		return 0, err
	}
	rss := startRSS()
	err := runPass(ctx, pool, o)
	return rss.stop(), err
}
