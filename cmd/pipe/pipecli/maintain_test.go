package pipecli_test

import (
	"testing"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

func TestMaintainPurgesPastRetention(t *testing.T) {
	t.Parallel()
	b := setup(t)
	old, kept := b.enqueueDemo(t, "old"), b.enqueueDemo(t, "kept")
	wantOK(t, b.pipe(t, "jobs", "cancel", old))
	// The run (not its journal, which stays in today's partition) moved to
	// two days ago: below the first day, in the old edge partition.
	if _, err := fixtures.Owner(t, b.pool).Exec(t.Context(), `update pipe.jobs set finished_at = finished_at - interval '2 days' where id = $1`, old); err != nil {
		t.Fatal(err)
	}

	// The default retention keeps a run cancelled two days ago.
	first := b.pipe(t, "maintain", "--json")
	wantOK(t, first)
	if got := decodeLoose[pipeline.MaintainResult](t, first.stdout); got.Purged != 0 {
		t.Fatalf("maintain with the default retention purged %d", got.Purged)
	}

	second := b.pipe(t, "maintain", "--done-retention", "1d")
	wantOK(t, second)
	if second.stdout != "purged 1 finished run(s) in 1 partition(s); rolled up 0 counter bucket(s); dropped 0 published event(s) and 0 expired worker(s)\n" {
		t.Fatalf("maintain printed %q", second.stdout)
	}
	wantError(t, b.pipe(t, "jobs", "show", old), 1, "X_JOB_NOT_FOUND")
	if s := b.show(t, kept).State; s != "ready" {
		t.Fatalf("maintain touched a live run: it is %s", s)
	}

	wantError(t, b.pipe(t, "maintain", "--done-retention", "0s"), 2, "X_CONFIG_INVALID")
	wantError(t, b.pipe(t, "maintain", "--dead-retention", "soon"), 2, "X_DURATION_INVALID")
}
