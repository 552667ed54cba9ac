package pipeline_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// A run's journal has two homes — the transitions in its row (enqueued, and
// claimed and completed for its first eight claims) and pipe.events — and
// reads as one, in the order the statements wrote it, even under a frozen
// clock where every event carries the same instant. Past eight claims the
// row stops growing and the transitions go to pipe.events.
func TestTheJournalReadsAsOneAcrossTheRowAndTheEventsTable(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	fixtures.FreezeClock(t, pool, time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	const failures = 10
	job := pipeline.MustJob("journal.spill", keyK, func(ctx context.Context, run *pipeline.Run[noInput]) (int, error) {
		if _, err := pipeline.Step(ctx, "once", func(context.Context) (int, error) { return 1, nil }); err != nil {
			return 0, err
		}
		if run.Attempt <= failures {
			return 0, errors.New("not yet")
		}
		return run.Attempt, nil
	}, pipeline.JobOptions[noInput, int]{Retry: &pipeline.Retry{Attempts: failures + 1, Backoff: pipeline.Fixed, Delay: time.Nanosecond, NoJitter: true}})
	res, err := job.Enqueue(ctx, pool, noInput{K: "j"})
	if err != nil {
		t.Fatal(err)
	}
	startWorker(t, pool, pipeline.WorkerConfig{}, job)
	d := awaitState(t, pool, res.ID, "done")

	want := []string{"enqueued"}
	for a := 1; a <= failures+1; a++ {
		want = append(want, "claimed")
		if a == 1 {
			want = append(want, "step.completed")
		}
		if a <= failures {
			want = append(want, "attempt.failed")
		}
	}
	want = append(want, "completed")
	got := kinds(d)
	if len(got) != len(want) {
		t.Fatalf("journal %v\nwant    %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("journal %v\nwant    %v", got, want)
		}
	}
	claim := 0
	for i, e := range d.Journal {
		if i > 0 && e.Seq <= d.Journal[i-1].Seq {
			t.Fatalf("event %d (%s) has seq %d after %d", i, e.Kind, e.Seq, d.Journal[i-1].Seq)
		}
		if e.Kind == "claimed" {
			if claim++; e.Attempt != claim {
				t.Fatalf("claim %d journalled attempt %d", claim, e.Attempt)
			}
		}
	}
	var inRow, inTable int
	if err := pool.QueryRow(ctx, `select (select count(*) from pipe.jobs j, pipe.transitions(j.transitions) where j.id = $1),
		(select count(*) from pipe.events where job_id = $1 and kind in ('enqueued', 'claimed', 'completed'))`, res.ID).Scan(&inRow, &inTable); err != nil {
		t.Fatal(err)
	}
	// enqueued and eight claims in the row; claims 9 to 11 and the completion
	// (of claim 11) in the table.
	if inRow != 9 || inTable != 4 {
		t.Fatalf("%d transitions in the row, %d in pipe.events; want 9 and 4", inRow, inTable)
	}
}
