package hostile_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/importrows"
	"github.com/pipekit/pipe/pipeline"
)

// The environment that makes the test binary the import's own process.
const (
	envChild = "PIPE_HOSTILE_CHILD"
	envURL   = "PIPE_HOSTILE_URL"
)

// TestMain doubles as the process an import runs alone in, so that its
// peak memory is the import's: started with envChild set to a FileImport,
// it works that one run and prints how it ended.
func TestMain(m *testing.M) {
	if in := os.Getenv(envChild); in != "" {
		if err := child(context.Background(), os.Getenv(envURL), in); err != nil {
			fmt.Fprintln(os.Stderr, "hostile child:", err)
			os.Exit(2)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// ending is how the child's run ended, and the child's peak resident
// memory.
type ending struct {
	State   string  `json:"state"`
	Attempt int     `json:"attempt"`
	Code    string  `json:"code"`
	Message string  `json:"message"`
	PeakMiB float64 `json:"peakMiB"`
}

// child enqueues one pipe.import run of raw, works it with one slot until
// it settles, and prints its ending.
func child(ctx context.Context, url, raw string) error {
	var in importrows.FileImport
	if err := json.Unmarshal([]byte(raw), &in); err != nil {
		return err
	}
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		return err
	}
	defer pool.Close()
	job := importrows.TableJob()
	res, err := job.Enqueue(ctx, pool, in)
	if err != nil {
		return err
	}
	reg, err := pipeline.NewRegistry(job)
	if err != nil {
		return err
	}
	w, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg, Queues: map[string]int{"pipe": 1},
		PollInterval: 10 * time.Millisecond, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return err
	}
	if err := w.Start(ctx); err != nil {
		return err
	}
	defer w.Shutdown(context.Background())
	d, err := settled(ctx, pool, res.ID)
	if err != nil {
		return err
	}
	e := ending{State: string(d.State), Attempt: d.Attempt, PeakMiB: peakMiB()}
	if d.LastError != nil {
		e.Code, e.Message = d.LastError.Code, d.LastError.Message
	}
	return json.NewEncoder(os.Stdout).Encode(e)
}

// settled polls the run's state alone until it settles.
func settled(ctx context.Context, pool *pgxpool.Pool, id string) (*pipeline.RunDetail, error) {
	for {
		var state string
		if err := pool.QueryRow(ctx, `select state from pipe.jobs where id = $1`, id).Scan(&state); err != nil {
			return nil, err
		}
		if !pipeline.State(state).Live() {
			return pipeline.NewAdmin(pool).Show(ctx, id)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// peakMiB answers the process's peak resident memory, VmHWM: the high
// water mark of its own address space since exec. (The rusage a parent
// reads would not do: Linux carries the parent's peak over into a child's
// at fork.)
func peakMiB() float64 { return vmHWM("/proc/self/status") }

// vmHWM reads VmHWM from a /proc status file, in MiB; 0 if it cannot.
func vmHWM(path string) float64 {
	raw, _ := os.ReadFile(path)
	for line := range strings.Lines(string(raw)) {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kib, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kib / 1024
		}
	}
	return 0
}

// measured is a child's ending.
type measured struct {
	ending
	Exit string // how the process ended, when it did not exit 0
}

// importAlone runs in in a child process and answers its ending and peak
// memory, killing it after limit (a run that would go on for hours). The
// peak is the child's own count, or, if it died first, the last the parent
// sampled from /proc.
func importAlone(t *testing.T, url string, in importrows.FileImport, limit time.Duration) measured {
	t.Helper()
	raw, _ := json.Marshal(in)
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envChild+"="+string(raw), envURL+"="+url)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sampled := make(chan float64)
	go sample(cmd.Process.Pid, ctx.Done(), sampled)
	runErr := cmd.Wait()
	cancel()
	var m measured
	if runErr != nil {
		m.Exit = fmt.Sprintf("%v (%s)", runErr, lastLine(stderr.Bytes()))
	} else if err := json.Unmarshal(stdout.Bytes(), &m.ending); err != nil {
		t.Fatalf("the child said %q: %v", stdout.String(), err)
	}
	m.PeakMiB = max(m.PeakMiB, <-sampled)
	return m
}

// sample reads pid's VmHWM every 50 ms until done, and sends the last.
func sample(pid int, done <-chan struct{}, out chan<- float64) {
	path := "/proc/" + strconv.Itoa(pid) + "/status"
	var last float64
	for {
		if p := vmHWM(path); p > 0 {
			last = p
		}
		select {
		case <-done:
			out <- last
			return
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func lastLine(b []byte) string {
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	return string(lines[len(lines)-1])
}
