package pipecli_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pipekit/pipe/cmd/pipe/pipecli"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/internal/diskfault"
	"github.com/pipekit/pipe/pipeline"
)

// waitingCommand runs a --wait command until the database shows until's
// change, then a second more, then stops it, and answers what it printed.
func waitingCommand(t *testing.T, b *bundle, until func() bool, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan result, 1)
	go func() { done <- execute(ctx, pipecli.Options{}, append([]string{"--database-url", b.url}, args...)...) }()
	deadline := time.Now().Add(30 * time.Second)
	for !until() {
		select {
		case r := <-done:
			t.Fatalf("the command ended before the change: exit %d\n%s", r.code, r.stderr)
		default:
		}
		if time.Now().After(deadline) {
			cancel()
			r := <-done
			t.Fatalf("the change did not come in 30 s; the command printed:\n%s", r.stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(time.Second) // the line is due within a second of the change
	cancel()
	return <-done
}

// journalHas answers whether a run of the database has a journal event of
// kind.
func (b *bundle) journalHas(t *testing.T, kind string) func() bool {
	return func() bool {
		var n int
		if err := b.pool.QueryRow(t.Context(), `select count(*) from pipe.journal where kind = $1`, kind).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n > 0
	}
}

// waitLines answers the JSON event lines of a --json command's stderr.
func waitLines(t *testing.T, stderr string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
		var ev map[string]any
		if json.Unmarshal([]byte(line), &ev) == nil && ev["event"] != nil {
			out = append(out, ev)
		}
	}
	return out
}

// An export into a full disk (a real 64 KiB tmpfs) says, while it waits,
// that its attempt failed with X_DISK_FULL and when the next one starts,
// and how to stop it; with --json the same as a JSON line.
func TestWaitSaysAnAttemptFailedOnAFullDisk(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, wideTable)
	r := waitingCommand(t, b, b.journalHas(t, "attempt.failed"), "export", "wide", "--to", diskfault.Small(t, 64<<10), "--wait")
	if !strings.Contains(r.stderr, "attempt 1 of 5 failed: X_DISK_FULL: ") || !strings.Contains(r.stderr, "; next try at ") ||
		!strings.Contains(r.stderr, "pipe jobs cancel ") {
		t.Fatalf("the waiting export did not say its attempt failed on a full disk:\n%s", r.stderr)
	}

	b = setup(t)
	b.exec(t, wideTable)
	r = waitingCommand(t, b, b.journalHas(t, "attempt.failed"), "export", "wide", "--to", diskfault.Small(t, 64<<10), "--wait", "--json")
	evs := waitLines(t, r.stderr)
	if len(evs) == 0 || evs[0]["event"] != "attempt.failed" || evs[0]["code"] != "X_DISK_FULL" || evs[0]["nextTryAt"] == nil || evs[0]["attempt"] != 1.0 {
		t.Fatalf("--json: the events %v; want attempt.failed with X_DISK_FULL and nextTryAt\n%s", evs, r.stderr)
	}
}

// wideTable outgrows a 64 KiB disk.
const wideTable = `create table wide(id bigint primary key, note text);
	insert into wide select i, md5(i::text) || md5((i * 7)::text) from generate_series(1, 5000) i`

// A run whose queue is paused is not claimed by the command's own worker:
// the command says so, and what resumes it; once resumed, it runs.
func TestWaitSaysItsQueueIsPaused(t *testing.T) {
	t.Parallel()
	for _, asJSON := range []bool{false, true} {
		b := setup(t)
		b.exec(t, `create table small(id int primary key); insert into small select generate_series(1, 10)`)
		if err := pipeline.NewAdmin(b.pool).PauseQueue(t.Context(), "pipe"); err != nil {
			t.Fatal(err)
		}
		args := []string{"export", "small", "--to", t.TempDir(), "--wait"}
		if asJSON {
			args = append(args, "--json")
		}
		r := waitingCommand(t, b, func() bool { return b.readyFor(t, 3*time.Second) }, args...)
		switch {
		case asJSON:
			evs := waitLines(t, r.stderr)
			if len(evs) != 1 || evs[0]["event"] != "queue.paused" || evs[0]["queue"] != "pipe" {
				t.Fatalf("--json: the events %v; want one queue.paused of queue pipe\n%s", evs, r.stderr)
			}
		case !strings.Contains(r.stderr, "queue pipe is paused: this command runs the run itself once it is resumed (`pipe queues resume pipe`)"):
			t.Fatalf("the waiting export did not say its queue is paused:\n%s", r.stderr)
		}
	}
}

// readyFor answers whether the database's one run has been ready for at
// least d since it was enqueued.
func (b *bundle) readyFor(t *testing.T, d time.Duration) bool {
	var n int
	err := b.pool.QueryRow(t.Context(), `select count(*) from pipe.jobs where state = 'ready' and created_at < now() - $1::interval`, d.String()).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n > 0
}

// A run behind an earlier run of its job, which the command's own worker
// takes first (here one blocked on a lock), is said to be waiting, and
// why, once it has waited a few seconds.
func TestWaitSaysItsRunIsNotStarted(t *testing.T) {
	t.Parallel()
	for _, asJSON := range []bool{false, true} {
		b := setup(t)
		b.exec(t, `create table slow(id int primary key); create table small(id int primary key); insert into small select generate_series(1, 10)`)
		if r := b.pipe(t, "export", "slow", "--to", t.TempDir()); r.code != 0 {
			t.Fatalf("enqueue the earlier export: exit %d\n%s", r.code, r.stderr)
		}
		lock, err := b.pool.Begin(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = lock.Rollback(context.Background()) })
		if _, err := lock.Exec(t.Context(), `lock table slow in access exclusive mode`); err != nil {
			t.Fatal(err)
		}
		args := []string{"export", "small", "--to", t.TempDir(), "--wait"}
		if asJSON {
			args = append(args, "--json")
		}
		r := waitingCommand(t, b, func() bool { return b.readyFor(t, 3*time.Second) }, args...)
		const want = "not started after 3s: this command runs the run itself, one run at a time, and runs the earlier runs of its job queued on pipe first"
		if asJSON {
			evs := waitLines(t, r.stderr)
			if len(evs) != 1 || evs[0]["event"] != "unclaimed" || !strings.HasPrefix(evs[0]["message"].(string), want) {
				t.Fatalf("--json: the events %v; want one unclaimed\n%s", evs, r.stderr)
			}
		} else if !strings.Contains(r.stderr, want) {
			t.Fatalf("the waiting export did not say why its run has not started:\n%s", r.stderr)
		}
		_ = lock.Rollback(t.Context())
	}
}

// An export --wait of an input whose run is already live waits for that
// run, says so, and runs it.
func TestWaitSaysItWaitsForTheLiveRunOfItsInput(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, `create table small(id int primary key); insert into small select generate_series(1, 10)`)
	dir := t.TempDir()
	if r := b.pipe(t, "export", "small", "--to", dir); r.code != 0 {
		t.Fatalf("enqueue: exit %d\n%s", r.code, r.stderr)
	}
	r := b.pipe(t, "export", "small", "--to", dir, "--wait", "--json")
	wantOK(t, r)
	evs := waitLines(t, r.stderr)
	if len(evs) != 1 || evs[0]["event"] != "deduped" || !strings.Contains(evs[0]["message"].(string), "already live: this command waits for it") {
		t.Fatalf("the events %v; want one deduped\n%s", evs, r.stderr)
	}
}

// pipe tasks run --wait works the task's runs in this process and says
// what each meets — here an attempt that failed and the next try — then
// answers each run done; a run that ends otherwise is the command's error.
func TestTasksRunWaitWorksTheRunsAndSaysWhatTheyMeet(t *testing.T) {
	t.Parallel()
	b := setup(t)
	var calls atomic.Int32
	job := pipeline.MustJob("test.flaky", func(in blockInput) string { return in.Key },
		func(context.Context, *pipeline.Run[blockInput]) (struct{}, error) {
			if calls.Add(1) == 1 {
				return struct{}{}, errcode.New(errcode.BlobUnavailable, "the bucket did not answer").WithFix("it is retried")
			}
			return struct{}{}, nil
		}, pipeline.JobOptions[blockInput, struct{}]{Retry: &pipeline.Retry{Attempts: 3, Delay: 2 * time.Second}})
	task := pipeline.MustTask("test.flakytask", "0 3 * * *", "UTC", []pipeline.TaskEntry{
		pipeline.Entry(job, func(o pipeline.Occurrence) blockInput { return blockInput{Key: o.At.Format(time.RFC3339)} }),
	})
	opts := pipecli.Options{Jobs: []pipeline.Registrable{job}, Tasks: []*pipeline.Task{task}}
	r := b.pipeWith(t, opts, "tasks", "run", task.Name(), "--wait")
	wantOK(t, r)
	if !strings.Contains(r.stderr, "attempt 1 of 3 failed: X_BLOB_UNAVAILABLE: the bucket did not answer; next try at ") {
		t.Fatalf("tasks run --wait did not say the attempt failed:\n%s", r.stderr)
	}
	if r.stdout != "ran 1 run(s) of task test.flakytask: all done\n" {
		t.Fatalf("tasks run --wait printed %q", r.stdout)
	}
	if calls.Load() != 2 {
		t.Fatalf("the body ran %d times; want 2", calls.Load())
	}
}
