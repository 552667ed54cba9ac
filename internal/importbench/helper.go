package importbench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/importrows"
	"github.com/pipekit/pipe/pipeline"
)

// The environment that makes a re-executed program the import helper.
const (
	envHelper = "PIPE_IMPORTBENCH_HELPER"
	envURL    = "PIPE_IMPORTBENCH_URL"
	envInput  = "PIPE_IMPORTBENCH_INPUT"
)

var helperCapable atomic.Bool

// HelperMain makes the program able to serve as the import figure's helper:
// the process that runs the import alone, so that its peak memory is the
// import's. A program offering the bench calls it first thing in main (a
// test binary, in TestMain); started as the helper it imports and exits.
func HelperMain() {
	helperCapable.Store(true)
	if os.Getenv(envHelper) == "" {
		return
	}
	if err := serveHelper(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "importbench helper:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// helperReport is what the helper prints: the run's end and how long it
// took from enqueue to settle.
type helperReport struct {
	State   string            `json:"state"`
	Code    string            `json:"code,omitempty"`
	Seconds float64           `json:"seconds"`
	Result  importrows.Result `json:"result"`
	// AnonKiB is the highest anonymous resident memory sampled.
	AnonKiB int64 `json:"anonKiB"`
}

func serveHelper(ctx context.Context, out io.Writer) error {
	var in importrows.FileImport
	if err := json.Unmarshal([]byte(os.Getenv(envInput)), &in); err != nil {
		return err
	}
	pool, err := pgxpool.New(ctx, os.Getenv(envURL))
	if err != nil {
		return err
	}
	defer pool.Close()
	job := importrows.TableJob()
	stop := make(chan struct{})
	peak := anonPeak(stop)
	start := time.Now()
	res, err := job.Enqueue(ctx, pool, in)
	if err != nil {
		return err
	}
	d, err := work(ctx, pool, job, res.ID)
	if err != nil {
		return err
	}
	close(stop)
	rep := helperReport{State: d.State, Seconds: time.Since(start).Seconds(), AnonKiB: peak.Load()}
	if d.LastError != nil && d.State != "done" {
		rep.Code = d.LastError.Code
	}
	_ = json.Unmarshal(d.Result, &rep.Result)
	return json.NewEncoder(out).Encode(rep)
}

// work runs one worker slot until the run settles.
func work(ctx context.Context, pool *pgxpool.Pool, job pipeline.Registrable, id string) (*pipeline.RunDetail, error) {
	reg, err := pipeline.NewRegistry(job)
	if err != nil {
		return nil, err
	}
	w, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg, Queues: map[string]int{"pipe": 1},
		PollInterval: 5 * time.Millisecond, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return nil, err
	}
	if err := w.Start(ctx); err != nil {
		return nil, err
	}
	defer w.Shutdown(context.Background())
	admin := pipeline.NewAdmin(pool)
	for {
		d, err := admin.Show(ctx, id)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(pipeline.LiveStates, d.State) {
			return d, nil
		}
		time.Sleep(5 * time.Millisecond)
	}
}
