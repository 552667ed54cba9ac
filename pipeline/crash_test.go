package pipeline_test

import (
	"context"
	"fmt"
	"os"
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
	fixtures.ChildMain(map[string]fixtures.ChildFunc{
		"crash": func(ctx context.Context, pool *pgxpool.Pool) error {
			return fixtures.WorkUntilKilled(ctx, pool, crashJob(pool, true))
		},
		"sleep": func(ctx context.Context, pool *pgxpool.Pool) error {
			return fixtures.WorkUntilKilled(ctx, pool, sleepJob(pool))
		},
		"scheduler": schedulerChild,
	})
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

	child := fixtures.StartChild(t, url, "crash")
	awaitEffect(t, pool, "blocked")
	child.Kill(t)

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
