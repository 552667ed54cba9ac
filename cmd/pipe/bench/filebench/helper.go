package filebench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"slices"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/importrows"
	"github.com/pipekit/pipe/pipeline"
)

// The environment that makes a re-executed program the bench's helper.
const (
	envHelper = "PIPE_FILEBENCH_HELPER"
	envURL    = "PIPE_FILEBENCH_URL"
	envJob    = "PIPE_FILEBENCH_JOB"
	envInput  = "PIPE_FILEBENCH_INPUT"
)

var helperCapable atomic.Bool

// HelperMain makes the program able to serve as the bench's helper: the
// process that runs one import or export alone, so that its peak memory is
// the run's. A program offering the bench calls it first thing in main (a
// test binary, in TestMain); started as the helper it runs and exits.
func HelperMain() {
	helperCapable.Store(true)
	if os.Getenv(envHelper) == "" {
		return
	}
	if err := serveHelper(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "filebench helper:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// helperReport is what the helper prints: the run's end, how long it took
// from enqueue to settle, its result, and the highest anonymous resident
// memory sampled.
type helperReport struct {
	State   string          `json:"state"`
	Code    string          `json:"code,omitempty"`
	Seconds float64         `json:"seconds"`
	Result  json.RawMessage `json:"result"`
	AnonKiB int64           `json:"anonKiB"`
}

func serveHelper(ctx context.Context, out io.Writer) error {
	pool, err := pgxpool.New(ctx, os.Getenv(envURL))
	if err != nil {
		return err
	}
	defer pool.Close()
	stop := make(chan struct{})
	peak := anonPeak(stop)
	start := time.Now()
	job, id, err := enqueue(ctx, pool, os.Getenv(envJob), []byte(os.Getenv(envInput)))
	if err != nil {
		return err
	}
	d, err := work(ctx, pool, job, id)
	if err != nil {
		return err
	}
	close(stop)
	rep := helperReport{State: d.State, Seconds: time.Since(start).Seconds(), Result: d.Result, AnonKiB: peak.Load()}
	if d.LastError != nil && d.State != "done" {
		rep.Code = d.LastError.Code
	}
	return json.NewEncoder(out).Encode(rep)
}

// enqueue enqueues one run of the stock job named.
func enqueue(ctx context.Context, pool *pgxpool.Pool, name string, raw []byte) (pipeline.Registrable, string, error) {
	switch name {
	case importrows.TableJobName:
		var in importrows.FileImport
		if err := json.Unmarshal(raw, &in); err != nil {
			return nil, "", err
		}
		job := importrows.TableJob()
		res, err := job.Enqueue(ctx, pool, in)
		return job, res.ID, err
	case exportrows.TableJobName:
		var in exportrows.TableExport
		if err := json.Unmarshal(raw, &in); err != nil {
			return nil, "", err
		}
		job := exportrows.TableJob()
		res, err := job.Enqueue(ctx, pool, in)
		return job, res.ID, err
	}
	return nil, "", fmt.Errorf("no stock job %q", name)
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
	// The run's state alone is polled (Show reads the whole journal), so
	// the watching costs the measured run next to nothing.
	for {
		var state string
		if err := pool.QueryRow(ctx, `select state from pipe.jobs where id = $1`, id).Scan(&state); err != nil {
			return nil, err
		}
		if !slices.Contains(pipeline.LiveStates, state) {
			return pipeline.NewAdmin(pool).Show(ctx, id)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// helperRun is one run in the helper process, as the parent sees it.
type helperRun struct {
	helperReport
	PeakRSSMiB  float64
	PeakAnonMiB float64
}

// runHelper runs the stock job on input in a helper process and answers
// its report, with the peak RSS the kernel kept for the process.
func runHelper(ctx context.Context, url, job string, input any) (*helperRun, error) {
	raw, _ := json.Marshal(input)
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, exe)
	cmd.Env = append(os.Environ(), envHelper+"=1", envURL+"="+url, envJob+"="+job, envInput+"="+string(raw))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s helper: %w: %s", job, err, stderr.String())
	}
	var r helperRun
	if err := json.Unmarshal(stdout.Bytes(), &r.helperReport); err != nil {
		return nil, fmt.Errorf("%s helper said %q: %w", job, stdout.String(), err)
	}
	if r.State != "done" {
		return nil, fmt.Errorf("the bench's %s run ended %s with %s", job, r.State, r.Code)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.PeakRSSMiB = float64(ru.Maxrss) / 1024 // Linux reports KiB
	}
	r.PeakAnonMiB = float64(r.AnonKiB) / 1024
	return &r, nil
}
