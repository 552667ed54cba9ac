package filebench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/importrows"
	"github.com/pipekit/pipe/pipeline"
)

// The environment that makes a re-executed program the bench's helper:
// envHelper says which (helperWork or helperIdle).
const (
	envHelper = "PIPE_FILEBENCH_HELPER"
	envURL    = "PIPE_FILEBENCH_URL"
	envJob    = "PIPE_FILEBENCH_JOB"
	envInput  = "PIPE_FILEBENCH_INPUT"
)

// The helpers: one that works one run alone, and an idle one that only
// connects and waits, whose peak is the baseline the run's is read against.
const (
	helperWork = "work"
	helperIdle = "idle"
)

// idleWait is how long the idle helper holds its connection before it
// reads its peak.
const idleWait = time.Second

var helperCapable atomic.Bool

// HelperMain makes the program able to serve as the bench's helpers: the
// process that runs one import or export alone, so that its peak memory is
// the run's, and the idle pipe beside it. A program offering the bench calls
// it first thing in main (a test binary, in TestMain); started as a helper
// it serves and exits.
func HelperMain() {
	helperCapable.Store(true)
	mode := os.Getenv(envHelper)
	if mode == "" {
		return
	}
	if err := serveHelper(context.Background(), mode, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "filebench helper:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// helperReport is what a helper prints: the run's end, how long it took
// from enqueue to settle and its result (none for the idle helper), and
// the process's peak resident memory.
type helperReport struct {
	State   string          `json:"state"`
	Code    string          `json:"code,omitempty"`
	Seconds float64         `json:"seconds"`
	Result  json.RawMessage `json:"result"`
	PeakKiB int64           `json:"peakKiB"`
}

func serveHelper(ctx context.Context, mode string, out io.Writer) error {
	pool, err := pgxpool.New(ctx, os.Getenv(envURL))
	if err != nil {
		return err
	}
	defer pool.Close()
	var rep helperReport
	switch mode {
	case helperIdle:
		rep, err = idle(ctx, pool)
	case helperWork:
		rep, err = workOne(ctx, pool)
	default:
		err = fmt.Errorf("no helper %q", mode)
	}
	if err != nil {
		return err
	}
	return json.NewEncoder(out).Encode(rep)
}

// idle connects, waits and reports its peak.
func idle(ctx context.Context, pool *pgxpool.Pool) (helperReport, error) {
	if err := pool.Ping(ctx); err != nil {
		return helperReport{}, err
	}
	time.Sleep(idleWait)
	return helperReport{State: "idle", PeakKiB: peakKiB()}, nil
}

// workOne enqueues the run the environment names, works it until it
// settles and reports it.
func workOne(ctx context.Context, pool *pgxpool.Pool) (helperReport, error) {
	start := time.Now()
	job, id, err := enqueue(ctx, pool, os.Getenv(envJob), []byte(os.Getenv(envInput)))
	if err != nil {
		return helperReport{}, err
	}
	d, err := work(ctx, pool, job, id, slots(os.Getenv(envInput)))
	if err != nil {
		return helperReport{}, err
	}
	rep := helperReport{State: string(d.State), Seconds: time.Since(start).Seconds(), Result: d.Result, PeakKiB: peakKiB()}
	if d.LastError != nil && d.State != "done" {
		rep.Code = d.LastError.Code
	}
	return rep, nil
}

// enqueue enqueues one run of the stock job named; a parallel import
// answers its range job too.
func enqueue(ctx context.Context, pool *pgxpool.Pool, name string, raw []byte) ([]pipeline.Registrable, string, error) {
	switch name {
	case importrows.TableJobName:
		var in importrows.FileImport
		if err := json.Unmarshal(raw, &in); err != nil {
			return nil, "", err
		}
		jobs := importrows.TableJobs()
		res, err := jobs.Import.Enqueue(ctx, pool, in)
		return jobs.All(), res.ID, err
	case exportrows.TableJobName:
		var in exportrows.TableExport
		if err := json.Unmarshal(raw, &in); err != nil {
			return nil, "", err
		}
		job := exportrows.TableJob()
		res, err := job.Enqueue(ctx, pool, in)
		return []pipeline.Registrable{job}, res.ID, err
	}
	return nil, "", fmt.Errorf("no stock job %q", name)
}

// slots answers the worker slots a helper's run takes: one, or for a
// parallel import or export one a range besides the parent's.
func slots(raw string) int {
	var in struct {
		Parallel int `json:"parallel"` // an export's
		Limits   struct {
			Parallel int `json:"parallel"` // an import's
		} `json:"limits"`
	}
	_ = json.Unmarshal([]byte(raw), &in)
	return max(1, max(in.Parallel, in.Limits.Parallel)+1)
}

// work runs slots worker slots until the run settles.
func work(ctx context.Context, pool *pgxpool.Pool, jobs []pipeline.Registrable, id string, slots int) (*pipeline.RunDetail, error) {
	reg, err := pipeline.NewRegistry(jobs...)
	if err != nil {
		return nil, err
	}
	w, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg, Queues: map[string]int{"pipe": slots},
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
		if !pipeline.State(state).Live() {
			return pipeline.NewAdmin(pool).Show(ctx, id)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// runHelper runs the stock job on input in a helper process and answers
// its report.
func runHelper(ctx context.Context, url, job string, input any) (*helperReport, error) {
	raw, _ := json.Marshal(input)
	r, err := startHelper(ctx, helperWork, envURL+"="+url, envJob+"="+job, envInput+"="+string(raw))
	if err != nil {
		return nil, fmt.Errorf("%s helper: %w", job, err)
	}
	if r.State != "done" {
		return nil, fmt.Errorf("the bench's %s run ended %s with %s", job, r.State, r.Code)
	}
	return r, nil
}

// runIdle starts the idle helper on url and answers its peak in KiB.
func runIdle(ctx context.Context, url string) (int64, error) {
	r, err := startHelper(ctx, helperIdle, envURL+"="+url)
	if err != nil {
		return 0, fmt.Errorf("idle helper: %w", err)
	}
	return r.PeakKiB, nil
}

// startHelper re-executes the program as the helper mode, with env added
// to its environment, and answers what it reported.
func startHelper(ctx context.Context, mode string, env ...string) (*helperReport, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, exe)
	cmd.Env = append(append(os.Environ(), envHelper+"="+mode), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%w: %s", err, stderr.String())
	}
	var r helperReport
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		return nil, fmt.Errorf("it said %q: %w", stdout.String(), err)
	}
	if r.PeakKiB == 0 {
		return nil, errors.New("it could not read its peak resident memory (VmHWM in /proc/self/status)")
	}
	return &r, nil
}
