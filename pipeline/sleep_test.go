package pipeline_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// sleepJob records which process ran each effect.
func sleepJob(pool *pgxpool.Pool) *pipeline.Job[noInput, int] {
	effect := func(ctx context.Context, step string) error {
		_, err := pool.Exec(ctx, `insert into effects (step, pid) values ($1, $2)`, step, os.Getpid())
		return err
	}
	return pipeline.MustJob("sleeper", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
		if _, err := pipeline.Step(ctx, "before", func(ctx context.Context) (int, error) { return 1, effect(ctx, "before") }); err != nil {
			return 0, err
		}
		if err := pipeline.Sleep(ctx, "nap", 300*time.Millisecond); err != nil {
			return 0, err
		}
		_, err := pipeline.Step(ctx, "after", func(ctx context.Context) (int, error) { return 1, effect(ctx, "after") })
		return run.Attempt, err
	})
}

func TestSleepResumesInAnotherProcessWithoutSpendingAnAttempt(t *testing.T) {
	ctx := context.Background()
	url := fixtures.DBURL(t)
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if _, err := pool.Exec(ctx, `create table effects (step text not null, pid int not null)`); err != nil {
		t.Fatal(err)
	}
	job := sleepJob(pool)
	res, _ := job.Enqueue(ctx, pool, noInput{K: "s"})
	child := fixtures.StartChild(t, url, "sleep")
	d := awaitState(t, pool, res.ID, "suspended")
	child.Kill(t)
	if d.Attempt != 0 || time.Until(d.RunAt) > 300*time.Millisecond {
		t.Fatalf("suspended row: attempt %d run at %v", d.Attempt, d.RunAt)
	}
	startWorker(t, pool, pipeline.WorkerConfig{}, job)
	d = awaitState(t, pool, res.ID, "done")
	var beforePid, afterPid, befores int
	_ = pool.QueryRow(ctx, `select count(*), min(pid) from effects where step = 'before'`).Scan(&befores, &beforePid)
	_ = pool.QueryRow(ctx, `select pid from effects where step = 'after'`).Scan(&afterPid)
	if befores != 1 || beforePid != child.Pid() || afterPid != os.Getpid() {
		t.Fatalf("before ran %d times in %d; after ran in %d; child %d, me %d", befores, beforePid, afterPid, child.Pid(), os.Getpid())
	}
	if string(d.Result) != "1" || !containsKind(d, "slept") {
		t.Fatalf("result (the attempt) %s; journal %v", d.Result, kinds(d))
	}
}
