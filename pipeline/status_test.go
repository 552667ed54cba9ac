package pipeline_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

type tally struct {
	Writes int `json:"writes"`
}

// A FencedTx commits its effect and the run's status document together;
// Show reports the document and when it was written, by the database clock.
// A later attempt reads the document an earlier one left.
func TestFencedTxStoresStatusWithTheEffect(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := context.Background()
	if _, err := pool.Exec(ctx, `create table effects (n int)`); err != nil {
		t.Fatal(err)
	}
	var seen []int
	job := pipeline.MustJob("fenced", keyK, func(ctx context.Context, r *pipeline.Run[noInput]) (int, error) {
		var prev tally
		if _, err := pipeline.StoredStatus(ctx, &prev); err != nil {
			return 0, err
		}
		seen = append(seen, prev.Writes)
		err := pipeline.FencedTx(ctx, func(ctx context.Context, tx pgx.Tx) (any, error) {
			_, err := tx.Exec(ctx, `insert into effects values ($1)`, r.Attempt)
			return tally{Writes: prev.Writes + 1}, err
		})
		if err != nil || r.Attempt == 1 {
			return 0, errors.Join(err, errors.New("the first attempt fails after its write"))
		}
		// A nil status keeps the stored document.
		return prev.Writes, pipeline.FencedTx(ctx, func(ctx context.Context, tx pgx.Tx) (any, error) { return nil, nil })
	}, pipeline.JobOptions[noInput, int]{Retry: &pipeline.Retry{Attempts: 2, Delay: 1}})
	res, err := job.Enqueue(ctx, pool, noInput{K: "a"})
	if err != nil {
		t.Fatal(err)
	}
	startWorker(t, pool, pipeline.WorkerConfig{}, job)
	d := awaitState(t, pool, res.ID, "done", "dead")
	if d.State != "done" {
		t.Fatalf("state %s", d.State)
	}
	var st tally
	if err := json.Unmarshal(d.Status, &st); err != nil || st.Writes != 2 || d.StatusAt == nil {
		t.Fatalf("status %s at %v (%v); want writes 2 with a stamp", d.Status, d.StatusAt, err)
	}
	if len(seen) != 2 || seen[0] != 0 || seen[1] != 1 {
		t.Fatalf("attempts saw stored writes %v; want [0 1]", seen)
	}
	var n int
	if err := pool.QueryRow(ctx, `select count(*) from effects`).Scan(&n); err != nil || n != 2 {
		t.Fatalf("%d effects (%v)", n, err)
	}
	for _, e := range d.Journal {
		if e.Kind == "step.completed" {
			t.Fatalf("a fenced transaction journalled a step: %+v", e)
		}
	}
}

// A FencedTx whose attempt lost its claim while fn ran commits nothing and
// answers X_JOB_LEASE_LOST.
func TestFencedTxRollsBackWhenTheClaimMovedOn(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := context.Background()
	if _, err := pool.Exec(ctx, `create table effects (n int)`); err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 1)
	job := pipeline.MustJob("fenced-lost", keyK, func(ctx context.Context, r *pipeline.Run[noInput]) (int, error) {
		err := pipeline.FencedTx(ctx, func(ctx context.Context, tx pgx.Tx) (any, error) {
			if _, err := tx.Exec(ctx, `insert into effects values (1)`); err != nil {
				return nil, err
			}
			// Another claim takes the run meanwhile, as after a lapsed lease.
			_, err := fixtures.Owner(t, pool).Exec(ctx, `update pipe.jobs set claims = claims + 1 where id = $1`, r.ID)
			return tally{Writes: 1}, err
		})
		got <- err
		return 0, err
	})
	if _, err := job.Enqueue(ctx, pool, noInput{K: "a"}); err != nil {
		t.Fatal(err)
	}
	startWorker(t, pool, pipeline.WorkerConfig{}, job)
	if err := <-got; !errors.Is(err, errcode.JobLeaseLost) {
		t.Fatalf("FencedTx answered %v; want X_JOB_LEASE_LOST", err)
	}
	var n int
	var status []byte
	if err := pool.QueryRow(ctx, `select (select count(*) from effects), (select status from pipe.jobs)`).Scan(&n, &status); err != nil {
		t.Fatal(err)
	}
	if n != 0 || status != nil {
		t.Fatalf("%d effects and status %s landed from a lost claim", n, status)
	}
}

// Outside a body FencedTx and StoredStatus are X_INVARIANT.
func TestFencedTxOutsideABody(t *testing.T) {
	err := pipeline.FencedTx(context.Background(), func(context.Context, pgx.Tx) (any, error) { return nil, nil })
	if !errors.Is(err, errcode.Invariant) {
		t.Fatalf("FencedTx: %v", err)
	}
	if _, err := pipeline.StoredStatus(context.Background(), &tally{}); !errors.Is(err, errcode.Invariant) {
		t.Fatalf("StoredStatus: %v", err)
	}
}

// Past a cancel — here a drain — FencedTx refuses with X_ABORTED before it
// begins, and nothing of fn runs.
func TestFencedTxRefusesPastACancel(t *testing.T) {
	pool := fixtures.DB(t)
	started, got := make(chan struct{}), make(chan error, 1)
	ran := false
	job := pipeline.MustJob("fenced-drained", keyK, func(ctx context.Context, r *pipeline.Run[noInput]) (int, error) {
		close(started)
		<-ctx.Done()
		err := pipeline.FencedTx(ctx, func(context.Context, pgx.Tx) (any, error) { ran = true; return nil, nil })
		got <- err
		return 0, err
	})
	if _, err := job.Enqueue(context.Background(), pool, noInput{K: "a"}); err != nil {
		t.Fatal(err)
	}
	w := startWorker(t, pool, pipeline.WorkerConfig{}, job)
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := w.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-got; !errors.Is(err, errcode.Aborted) || ran {
		t.Fatalf("FencedTx past a drain answered %v (fn ran: %v); want X_ABORTED", err, ran)
	}
}

// A run that commits progress through FencedTx is never buried by failures
// spread over its life: an attempt's first fence gives back what earlier
// attempts spent. One that fails before committing anything is counted as
// usual.
func TestFencedProgressGivesBackSpentAttempts(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := context.Background()
	var attempts []int
	progressing := pipeline.MustJob("progressing", keyK, func(ctx context.Context, r *pipeline.Run[noInput]) (int, error) {
		attempts = append(attempts, r.Attempt)
		err := pipeline.FencedTx(ctx, func(ctx context.Context, tx pgx.Tx) (any, error) { return tally{Writes: len(attempts)}, nil })
		if err != nil || len(attempts) < 5 {
			return 0, errors.Join(err, errors.New("fails after committing a batch"))
		}
		return len(attempts), nil
	}, pipeline.JobOptions[noInput, int]{Retry: &pipeline.Retry{Attempts: 2, Delay: 1}})
	stuck := pipeline.MustJob("stuck", keyK, func(ctx context.Context, r *pipeline.Run[noInput]) (int, error) {
		return 0, errors.New("fails before committing anything")
	}, pipeline.JobOptions[noInput, int]{Retry: &pipeline.Retry{Attempts: 2, Delay: 1}})
	a, _ := progressing.Enqueue(ctx, pool, noInput{K: "a"})
	b, _ := stuck.Enqueue(ctx, pool, noInput{K: "b"})
	startWorker(t, pool, pipeline.WorkerConfig{}, progressing, stuck)
	if d := awaitState(t, pool, a.ID, "done", "dead"); d.State != "done" || string(d.Result) != "5" {
		t.Fatalf("the progressing run is %s (%s) after attempts %v", d.State, d.Result, attempts)
	}
	if d := awaitState(t, pool, b.ID, "done", "dead"); d.State != "dead" || d.Attempt != 2 {
		t.Fatalf("the stuck run is %s at attempt %d", d.State, d.Attempt)
	}
	if want := []int{1, 2, 2, 2, 2}; !slices.Equal(attempts, want) {
		t.Fatalf("the body saw attempts %v; want %v", attempts, want)
	}
}
