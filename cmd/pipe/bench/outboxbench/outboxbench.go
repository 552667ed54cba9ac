// Package outboxbench measures the outbox: the relay's throughput to NATS
// JetStream with 1 KiB payloads, beside the spec's relay loop (claim a
// batch, publish it, mark it, commit) run here on the same broker and
// database; the cost of staging a message in the app's transaction beside
// a plain insert of the same row; and the end-to-end lag, from the
// staging commit to a consumer of the broker, at a steady rate. The logic
// behind `pipe bench outbox`.
package outboxbench

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// The spec's relay figure, the anchor the issue sets the target against:
// 8,564-9,505 rows/s at 500 a batch (its own measure, Postgres, 2026-11-03).
const (
	SpecLow  = 8564
	SpecHigh = 9505
)

// name is the relay's name and the bench's stream prefix; its rows are
// deleted before and after each figure.
const name = "pipe-bench-outbox"

// jsName is the JetStream stream the bench publishes to, made and deleted
// by each figure.
const jsName = "PIPE_BENCH_OUTBOX"

// Options configure [Run].
type Options struct {
	// NATS is the JetStream server's URL.
	NATS string
	// Rows is how many 1 KiB messages the throughput figures relay.
	Rows int
	// Batches are the relay's batch sizes measured.
	Batches []int
	// Stages is how many one-row transactions the staging figures commit.
	Stages int
	// Rate and Duration are the lag figure's steady rate (rows a second)
	// and how long it lasts.
	Rate     int
	Duration time.Duration
	// Logger receives the bench worker's logs. Default none.
	Logger *slog.Logger
}

// Figure is one figure of Run.
type Figure struct {
	Name  string  `json:"name"`
	Line  string  `json:"line"`
	Batch int     `json:"batch,omitempty"`
	Rows  int     `json:"rows"`
	Rate  float64 `json:"rate,omitempty"`
	// Ratio is the figure beside its anchor: the relay's rate over the
	// anchor loop's (and SpecHigh's in SpecRatio), staging's time over the
	// plain insert's.
	Ratio     float64 `json:"ratio,omitempty"`
	SpecRatio float64 `json:"specRatio,omitempty"`
	P50Ms     float64 `json:"p50Ms,omitempty"`
	P99Ms     float64 `json:"p99Ms,omitempty"`
	MaxMs     float64 `json:"maxMs,omitempty"`
}

// Run measures every figure, printing one line each to out, and cleans
// up what it made: outbox rows, runs, cursors, tables, the stream.
func Run(ctx context.Context, pool *pgxpool.Pool, o Options, out io.Writer) ([]Figure, error) {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	nc, err := nats.Connect(o.NATS)
	if err != nil {
		return nil, fmt.Errorf("bench outbox: connect to NATS: %w", err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	defer clean(context.Background(), pool, js)
	var figs []Figure
	emit := func(f Figure) {
		fmt.Fprintln(out, f.Line)
		figs = append(figs, f)
	}
	for _, batch := range o.Batches {
		if err := throughput(ctx, pool, js, o, batch, emit); err != nil {
			return figs, err
		}
	}
	if err := staging(ctx, pool, o, emit); err != nil {
		return figs, err
	}
	if err := lag(ctx, pool, js, o, emit); err != nil {
		return figs, err
	}
	return figs, nil
}

// clean deletes the bench's rows, runs and cursors, its tables and stream,
// then vacuums the tables it churned, as autovacuum would between two
// figures (a server with autovacuum off would otherwise hand each figure
// the dead rows of the one before).
func clean(ctx context.Context, pool *pgxpool.Pool, js jetstream.JetStream) error {
	_ = js.DeleteStream(ctx, jsName)
	_, err := pool.Exec(ctx, `delete from pipe.outbox where stream like 'pipe-bench-outbox%';
		delete from pipe.outbox_batches where stream like 'pipe-bench-outbox%';
		delete from pipe.consumer_cursors where consumer like 'pipe-bench-outbox%';
		delete from pipe.events where job_id in (select id from pipe.jobs where name like 'pipe-bench-outbox%');
		delete from pipe.jobs where name like 'pipe-bench-outbox%';
		drop table if exists pipe_bench_outbox_plain;
		drop table if exists pipe_bench_outbox_anchor`)
	if err != nil {
		return err
	}
	_, err = pool.Exec(ctx, `vacuum pipe.outbox, pipe.outbox_batches, pipe.consumer_cursors, pipe.runs, pipe.run_events`)
	return err
}

// freshStream cleans up, then makes the bench's JetStream stream.
func freshStream(ctx context.Context, pool *pgxpool.Pool, js jetstream.JetStream) error {
	if err := clean(ctx, pool, js); err != nil {
		return err
	}
	_, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: jsName, Subjects: []string{jsName + ".>"}, Storage: jetstream.FileStorage})
	return err
}
