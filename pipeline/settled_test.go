package pipeline_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

func TestOnSettledHearsEachEndingOnce(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	var mu sync.Mutex
	heard := map[string]string{}
	tries := 0
	hook := func(ctx context.Context, s pipeline.Settled[noInput, int]) error {
		mu.Lock()
		defer mu.Unlock()
		tries++
		if tries == 1 {
			return errors.New("the hook's first try fails") // tried again
		}
		switch s.Outcome {
		case pipeline.OutcomeCompleted:
			heard[s.Input.K] = string(s.Outcome)
			if s.Result != 7 {
				t.Errorf("result %d", s.Result)
			}
		default:
			heard[s.Input.K] = string(s.Outcome) + ":" + s.Error.Message
		}
		return nil
	}
	j := pipeline.MustJob("settled", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
		if run.Input.K == "bad" {
			return 0, errors.New("no")
		}
		return 7, nil
	}, pipeline.JobOptions[noInput, int]{Retry: &pipeline.Retry{Attempts: 2, Delay: time.Millisecond}, OnSettled: hook})
	startWorker(t, pool, pipeline.WorkerConfig{}, j)
	good, _ := j.Enqueue(ctx, pool, noInput{K: "good"})
	awaitState(t, pool, good.ID, "done")
	bad, _ := j.Enqueue(ctx, pool, noInput{K: "bad"})
	awaitState(t, pool, bad.ID, "dead")
	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		n := len(heard)
		mu.Unlock()
		if n == 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if heard["good"] != "completed" || heard["bad"] != "dead-lettered:no" || tries != 3 {
		t.Fatalf("heard %v after %d tries; the retry (attempt 1 of bad) must not be heard", heard, tries)
	}
}

// A job's OnSettledTimeout bounds its hook: a hook that waits for its
// context hears X_JOB_TIMEOUT at the declared bound, not at the default
// 30 s; a negative bound is refused at declaration.
func TestOnSettledTimeoutBoundsTheHook(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	ended := make(chan time.Duration, 3)
	var causes []error
	var mu sync.Mutex
	hook := func(ctx context.Context, s pipeline.Settled[noInput, int]) error {
		start := time.Now()
		<-ctx.Done()
		mu.Lock()
		causes = append(causes, context.Cause(ctx))
		mu.Unlock()
		ended <- time.Since(start)
		return ctx.Err()
	}
	body := func(context.Context, *pipeline.Run[noInput]) (int, error) { return 1, nil }
	j := pipeline.MustJob("settled.bounded", keyK, body, pipeline.JobOptions[noInput, int]{OnSettled: hook, OnSettledTimeout: 200 * time.Millisecond})
	startWorker(t, pool, pipeline.WorkerConfig{}, j)
	res, err := j.Enqueue(ctx, pool, noInput{K: "a"})
	if err != nil {
		t.Fatal(err)
	}
	awaitState(t, pool, res.ID, "done")
	select {
	case d := <-ended:
		if d > 5*time.Second {
			t.Fatalf("the hook's context ended after %v; want about 200 ms", d)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the hook's context did not end within 10 s of a 200 ms bound")
	}
	mu.Lock()
	defer mu.Unlock()
	if !errors.Is(causes[0], errcode.JobTimeout) {
		t.Fatalf("the hook's context ended with %v; want X_JOB_TIMEOUT", causes[0])
	}
	_, err = pipeline.NewJob("settled.negative", keyK, body, pipeline.JobOptions[noInput, int]{OnSettled: hook, OnSettledTimeout: -time.Second})
	if !errors.Is(err, errcode.JobDeclarationInvalid) {
		t.Fatalf("a negative OnSettledTimeout: %v", err)
	}
}

func TestProgressLastReportAlwaysLands(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	j := pipeline.MustJob("progress", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
		for i := int64(1); i <= 100; i++ {
			if err := pipeline.Progress(ctx, i, 100, "rows"); err != nil {
				return 0, err
			}
		}
		return 1, nil
	})
	// Count the writes of the progress column, which the journal does not
	// hold: progress is a projection, not a state change.
	if _, err := fixtures.Owner(t, pool).Exec(ctx, `create table progress_writes (at timestamptz default clock_timestamp());
		create function count_progress() returns trigger language plpgsql security definer as
			$$ begin insert into progress_writes default values; return null; end $$;
		create trigger count_progress after update of progress on pipe.runs_open for each row
			when (old.progress is distinct from new.progress) execute function count_progress()`); err != nil {
		t.Fatal(err)
	}
	startWorker(t, pool, pipeline.WorkerConfig{}, j)
	res, _ := j.Enqueue(ctx, pool, noInput{K: "p"})
	d := awaitState(t, pool, res.ID, "done")
	if string(d.Progress) != `{"done": 100, "note": "rows", "total": 100}` {
		t.Fatalf("progress %s", d.Progress)
	}
	var writes int
	if err := fixtures.Owner(t, pool).QueryRow(ctx, `select count(*) from progress_writes`).Scan(&writes); err != nil {
		t.Fatal(err)
	}
	if writes < 1 || writes > 2 {
		t.Fatalf("%d progress writes for 100 reports in well under a second; want at most one a second and the last", writes)
	}
	for _, e := range d.Journal {
		if e.Kind == "progress" {
			t.Fatalf("progress journalled: %v", kinds(d))
		}
	}
}

// The two other endings a hook hears, each once: "dropped" for a run that
// failed for good on a job with NoDeadLetter (its error with it), and
// "refused" for a run a busy concurrency key turned away under WhenBusy
// Fail (X_JOB_KEY_BUSY, its body never run).
func TestOnSettledHearsDroppedAndRefused(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	var mu sync.Mutex
	heard := map[string][]pipeline.Settled[noInput, int]{}
	hook := func(_ context.Context, s pipeline.Settled[noInput, int]) error {
		mu.Lock()
		defer mu.Unlock()
		heard[s.ID] = append(heard[s.ID], s)
		return nil
	}
	dropping := pipeline.MustJob("settled.dropped", keyK, func(context.Context, *pipeline.Run[noInput]) (int, error) {
		return 0, errors.New("no")
	}, pipeline.JobOptions[noInput, int]{Retry: &pipeline.Retry{Attempts: 2, Delay: time.Millisecond, NoDeadLetter: true}, OnSettled: hook})
	release := make(chan struct{})
	var ran sync.Map
	busy := pipeline.MustJob("settled.refused", keyK, func(ctx context.Context, r *pipeline.Run[noInput]) (int, error) {
		ran.Store(r.Input.K, true)
		if r.Input.K == "holder" {
			select {
			case <-release:
			case <-ctx.Done():
			}
		}
		return 1, nil
	}, pipeline.JobOptions[noInput, int]{OnSettled: hook,
		Concurrency: &pipeline.Concurrency[noInput]{Limit: 1, Key: func(noInput) string { return "one-key" }, WhenBusy: pipeline.Fail}})
	startWorker(t, pool, pipeline.WorkerConfig{}, dropping, busy)

	d, _ := dropping.Enqueue(ctx, pool, noInput{K: "d"})
	awaitState(t, pool, d.ID, "failed")
	holder, _ := busy.Enqueue(ctx, pool, noInput{K: "holder"})
	awaitState(t, pool, holder.ID, "running")
	turned, _ := busy.Enqueue(ctx, pool, noInput{K: "turned"})
	awaitState(t, pool, turned.ID, "failed")
	close(release)
	awaitState(t, pool, holder.ID, "done")

	want := map[string]pipeline.Outcome{d.ID: pipeline.OutcomeDropped, turned.ID: pipeline.OutcomeRefused, holder.ID: pipeline.OutcomeCompleted}
	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		n := len(heard)
		mu.Unlock()
		if n == len(want) || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // a second hearing would land by now
	mu.Lock()
	defer mu.Unlock()
	for id, outcome := range want {
		got := heard[id]
		if len(got) != 1 || got[0].Outcome != outcome || got[0].Input == nil {
			t.Fatalf("run %s: heard %+v; want %s once, with its input", id, got, outcome)
		}
	}
	if e := heard[d.ID][0].Error; e == nil || e.Message != "no" || e.Attempt != 2 {
		t.Fatalf("dropped: the error heard is %+v; want the last attempt's", e)
	}
	if e := heard[turned.ID][0].Error; e == nil || errcode.Code(e.Code) != errcode.JobKeyBusy {
		t.Fatalf("refused: the error heard is %+v; want X_JOB_KEY_BUSY", e)
	}
	if _, ok := ran.Load("turned"); ok {
		t.Fatal("the refused run's body ran")
	}
}
