package pipeline_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// More bodies holding a connection across their steps than the pool has
// connections cannot lock the worker up: held connections have a budget of
// half the pool, and a body over it waits for another's.
func TestHeldConnectionsNeverStarveTheSteps(t *testing.T) {
	ctx := context.Background()
	cfg, err := pgxpool.ParseConfig(fixtures.DBURL(t))
	if err != nil {
		t.Fatal(err)
	}
	cfg.MaxConns = 4
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	var holding, most atomic.Int32
	job := pipeline.MustJob("holds", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
		held, err := pipeline.Hold(ctx)
		if err != nil {
			return 0, err
		}
		defer held.Release()
		now := holding.Add(1)
		defer holding.Add(-1)
		for m := most.Load(); now > m && !most.CompareAndSwap(m, now); m = most.Load() {
		}
		tx, err := held.Conn().BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
		if err != nil {
			return 0, err
		}
		defer func() { _ = tx.Rollback(context.Background()) }()
		for i := range 5 {
			if _, err := pipeline.StepTx(ctx, fmt.Sprint("page-", i), func(ctx context.Context, tx pgx.Tx) (int, error) {
				return i, tx.QueryRow(ctx, `select 1`).Scan(new(int))
			}); err != nil {
				return 0, err
			}
		}
		return 1, nil
	})
	var ids []string
	for i := range 8 {
		res, err := job.Enqueue(ctx, pool, noInput{K: fmt.Sprint(i)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.ID)
	}
	startWorker(t, pool, pipeline.WorkerConfig{Queues: map[string]int{pipeline.DefaultQueue: 8}}, job)
	for _, id := range ids {
		if d := awaitState(t, pool, id, "done", "dead"); d.State != "done" {
			t.Fatalf("run %s is %s: %+v", id, d.State, d.LastError)
		}
	}
	if most.Load() > 2 {
		t.Fatalf("%d bodies held a connection at once on a pool of 4", most.Load())
	}
}

// Hold outside a body is X_INVARIANT.
func TestHoldOutsideABody(t *testing.T) {
	if _, err := pipeline.Hold(context.Background()); !errors.Is(err, errcode.Invariant) {
		t.Fatalf("err = %v", err)
	}

}

// Hold inside a step's transaction is refused: waiting there for the
// budget would keep the step's own connection from the bodies it waits for.
func TestHoldInsideAStepIsRefused(t *testing.T) {
	pool := fixtures.DB(t)
	job := pipeline.MustJob("holds-in-step", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
		return pipeline.StepTx(ctx, "inside", func(ctx context.Context, tx pgx.Tx) (int, error) {
			_, err := pipeline.Hold(ctx)
			return 0, err
		})
	}, pipeline.JobOptions[noInput, int]{Retry: &pipeline.Retry{Attempts: 1}})
	d, _ := fixtures.Run(t, pool, job, noInput{K: "a"})
	if d.State != "dead" || d.LastError.Code != string(errcode.Invariant) {
		t.Fatalf("%s: %+v", d.State, d.LastError)
	}
}
