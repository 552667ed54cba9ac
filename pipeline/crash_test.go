package pipeline_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// TestMain doubles as the crash test's worker process: re-executed with
// PIPE_TEST_CHILD=crash, the test binary runs a worker and is SIGKILLed.
func TestMain(m *testing.M) {
	switch os.Getenv("PIPE_TEST_CHILD") {
	case "crash":
		os.Exit(crashChild())
	case "sleep":
		os.Exit(sleepChild())
	case "scheduler":
		os.Exit(schedulerChild())
	}
	os.Exit(m.Run())
}

// crashJob writes one effect row per step it runs. In the child process the
// body blocks after its first two steps, to be killed there.
func crashJob(pool *pgxpool.Pool, blockAfterTwo bool) *pipeline.Job[noInput, int] {
	effect := func(step string) func(ctx context.Context, tx pgx.Tx) (int, error) {
		return func(ctx context.Context, tx pgx.Tx) (int, error) {
			_, err := tx.Exec(ctx, `insert into effects (step) values ($1)`, step)
			return 1, err
		}
	}
	return pipeline.MustJob("crash.effects", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
		if _, err := pipeline.StepTx(ctx, "one", effect("one")); err != nil {
			return 0, err
		}
		if _, err := pipeline.Step(ctx, "two", func(ctx context.Context) (int, error) {
			_, err := pool.Exec(ctx, `insert into effects (step) values ('two')`)
			return 2, err
		}); err != nil {
			return 0, err
		}
		if blockAfterTwo {
			_, _ = pool.Exec(ctx, `insert into effects (step) values ('blocked')`)
			<-ctx.Done()
		}
		_, err := pipeline.StepTx(ctx, "three", effect("three"))
		return run.Attempt, err
	})
}

func crashChild() int {
	return runChild(func(pool *pgxpool.Pool) pipeline.Registrable { return crashJob(pool, true) }, 500*time.Millisecond)
}

// runChild is a child process's main: a worker over the job until SIGKILL.
func runChild(job func(*pgxpool.Pool) pipeline.Registrable, lease time.Duration) int {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, os.Getenv("PIPE_TEST_DB_URL"))
	if err != nil {
		return 2
	}
	reg, _ := pipeline.NewRegistry(job(pool))
	w, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg, Lease: lease,
		PollInterval: 10 * time.Millisecond, IdlePollMax: 50 * time.Millisecond})
	if err != nil || w.Start(ctx) != nil {
		return 2
	}
	select {} // until SIGKILL
}

func TestSIGKILLedWorkerIsFinishedByAnotherWithoutRepeatingSteps(t *testing.T) {
	ctx := context.Background()
	url := fixtures.DBURL(t)
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if _, err := pool.Exec(ctx, `create table effects (step text not null)`); err != nil {
		t.Fatal(err)
	}
	job := crashJob(pool, false)
	res, _ := job.Enqueue(ctx, pool, noInput{K: "crash"})

	child := exec.Command(os.Args[0], "-test.run=^$")
	child.Env = append(os.Environ(), "PIPE_TEST_CHILD=crash", "PIPE_TEST_DB_URL="+url)
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	awaitEffect(t, pool, "blocked")
	if err := child.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = child.Wait()

	startWorker(t, pool, pipeline.WorkerConfig{}, job)
	d := awaitState(t, pool, res.ID, "done")
	for step, want := range map[string]int{"one": 1, "two": 1, "blocked": 1, "three": 1} {
		if got := countEffect(t, pool, step); got != want {
			t.Errorf("effect %s happened %d times; want %d", step, got, want)
		}
	}
	if string(d.Result) != "2" {
		t.Errorf("finished on attempt %s; want 2", d.Result)
	}
	if !containsKind(d, "lease.lapsed") {
		t.Errorf("journal lacks the lapse: %v", kinds(d))
	}
}

func awaitEffect(t *testing.T, pool *pgxpool.Pool, step string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for countEffect(t, pool, step) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("effect %s never happened", step)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func countEffect(t *testing.T, pool *pgxpool.Pool, step string) int {
	t.Helper()
	var n int
	if err := pool.QueryRow(context.Background(), `select count(*) from effects where step = $1`, step).Scan(&n); err != nil {
		t.Fatal(fmt.Errorf("count effects: %w", err))
	}
	return n
}

func containsKind(d *pipeline.RunDetail, kind string) bool {
	for _, e := range d.Journal {
		if e.Kind == kind {
			return true
		}
	}
	return false
}
