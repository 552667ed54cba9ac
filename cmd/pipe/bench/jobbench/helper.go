package jobbench

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pipekit/pipe/pipeline"
)

// The environment that makes a re-executed program the pickup helper.
const (
	envHelper   = "PIPE_JOBBENCH_HELPER"
	envURL      = "PIPE_JOBBENCH_URL"
	envJob      = "PIPE_JOBBENCH_JOB"
	envQueue    = "PIPE_JOBBENCH_QUEUE"
	envThrottle = "PIPE_JOBBENCH_WAKE_THROTTLE"
)

// helperCapable says the program called HelperMain, so it may re-exec
// itself as the helper.
var helperCapable atomic.Bool

// HelperMain makes the program able to serve as the pickup-process figure's
// helper: the process that enqueues, so that the figure times a wake across
// processes. A program offering the bench calls it first thing in main (a
// test binary, in TestMain). Started as the helper — by Run, through the
// environment — it serves and exits; otherwise it returns at once.
func HelperMain() {
	helperCapable.Store(true)
	if os.Getenv(envHelper) == "" {
		return
	}
	if err := serveHelper(context.Background(), os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "jobbench helper:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// serveHelper declares the bench job as the parent did, answers "ready",
// then for each line "i" enqueues job i and answers "i <unix ns>", the wall
// clock just before the enqueue began. It ends at EOF.
func serveHelper(ctx context.Context, in io.Reader, out io.Writer) error {
	throttle, err := time.ParseDuration(os.Getenv(envThrottle))
	if err != nil {
		return fmt.Errorf("%s: %w", envThrottle, err)
	}
	pool, err := pgxpool.New(ctx, os.Getenv(envURL))
	if err != nil {
		return err
	}
	defer pool.Close()
	if err := pool.Ping(ctx); err != nil {
		return err
	}
	job, err := pipeline.NewJob(os.Getenv(envJob), inputKey,
		func(context.Context, *pipeline.Run[input]) (none, error) { return none{}, nil },
		pipeline.JobOptions[input, none]{Queue: os.Getenv(envQueue)})
	if err != nil {
		return err
	}
	job.SetWakeThrottle(throttle)
	if _, err := fmt.Fprintln(out, "ready"); err != nil {
		return err
	}
	lines := bufio.NewScanner(in)
	for lines.Scan() {
		i, err := strconv.Atoi(strings.TrimSpace(lines.Text()))
		if err != nil {
			return fmt.Errorf("bad request %q", lines.Text())
		}
		t0 := time.Now()
		if _, err := job.Enqueue(ctx, pool, input{I: i}); err != nil {
			fmt.Fprintf(out, "error %v\n", err)
			return err
		}
		if _, err := fmt.Fprintf(out, "%d %d\n", i, t0.UnixNano()); err != nil {
			return err
		}
	}
	return lines.Err()
}

var errHelperGone = errors.New("the helper process ended")

// helperEnqueuer enqueues through a helper process.
type helperEnqueuer struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	stderr *bytes.Buffer
	once   sync.Once
	err    error
}

// startHelper re-executes this program as the helper and waits until it is
// ready.
func startHelper(ctx context.Context, pool *pgxpool.Pool, name string, o Options) (*helperEnqueuer, error) {
	dsn := pool.Config().ConnString()
	if dsn == "" {
		return nil, errors.New("the helper connects with the pool's connection string, and this pool was built without one")
	}
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("find this program to re-exec it: %w", err)
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(),
		envHelper+"=pickup",
		envURL+"="+dsn,
		envJob+"="+name,
		envQueue+"="+o.Queue,
		envThrottle+"="+o.WakeThrottle.String())
	h := &helperEnqueuer{cmd: cmd, lines: make(chan string, 16), stderr: &bytes.Buffer{}}
	cmd.Stderr = h.stderr
	if h.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start the helper: %w", err)
	}
	go func() {
		defer close(h.lines)
		s := bufio.NewScanner(stdout)
		for s.Scan() {
			h.lines <- s.Text()
		}
	}()
	line, err := h.next(ctx, 30*time.Second)
	if err == nil && line != "ready" {
		err = fmt.Errorf("the helper answered %q, not ready", line)
	}
	if err != nil {
		_ = h.close()
		return nil, h.explain(err)
	}
	return h, nil
}

func (h *helperEnqueuer) next(ctx context.Context, within time.Duration) (string, error) {
	t := time.NewTimer(within)
	defer t.Stop()
	select {
	case line, ok := <-h.lines:
		if !ok {
			return "", errHelperGone
		}
		return line, nil
	case <-t.C:
		return "", fmt.Errorf("the helper did not answer within %v", within)
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func (h *helperEnqueuer) explain(err error) error {
	if msg := strings.TrimSpace(h.stderr.String()); msg != "" {
		return fmt.Errorf("%w: %s", err, msg)
	}
	return err
}

func (h *helperEnqueuer) enqueue(ctx context.Context, i int) (time.Time, error) {
	if _, err := fmt.Fprintf(h.stdin, "%d\n", i); err != nil {
		return time.Time{}, h.explain(fmt.Errorf("write to the helper: %w", err))
	}
	line, err := h.next(ctx, 10*time.Second)
	if err != nil {
		return time.Time{}, h.explain(err)
	}
	got, ns, ok := strings.Cut(line, " ")
	if !ok || got != strconv.Itoa(i) {
		return time.Time{}, h.explain(fmt.Errorf("the helper answered %q to job %d", line, i))
	}
	n, err := strconv.ParseInt(ns, 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("the helper answered %q to job %d", line, i)
	}
	return time.Unix(0, n), nil
}

// close ends the helper: EOF on its input, then a kill if it lingers.
func (h *helperEnqueuer) close() error {
	h.once.Do(func() {
		_ = h.stdin.Close()
		done := make(chan error, 1)
		go func() { done <- h.cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				h.err = h.explain(fmt.Errorf("the helper: %w", err))
			}
		case <-time.After(10 * time.Second):
			_ = h.cmd.Process.Kill()
			<-done
			h.err = errors.New("the helper did not exit within 10s of its input closing; killed")
		}
	})
	return h.err
}
