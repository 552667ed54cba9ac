package pipecli_test

import (
	"testing"

	"github.com/pipekit/pipe/cmd/pipe/pipecli"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

func TestJobsListByKeyAndConcurrencyKey(t *testing.T) {
	t.Parallel()
	b := setup(t)
	var ids []string
	for _, signup := range []string{"signup-1", "signup-2", "signup-3"} {
		res, err := pipecli.DemoJob().Enqueue(t.Context(), b.pool, pipecli.DemoInput{SignupID: signup, User: "u"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.ID)
	}
	if _, err := b.pool.Exec(t.Context(), `update pipe.runs set concurrency_key = 'account-7' where idem_key <> 'signup-1'`); err != nil {
		t.Fatal(err)
	}

	byKey := b.pipe(t, "jobs", "list", "--json", "--key", "signup-2")
	wantOK(t, byKey)
	if p := decode[pipeline.Page](t, byKey.stdout); len(p.Jobs) != 1 || p.Jobs[0].ID != ids[1] {
		t.Fatalf("list --key signup-2 = %+v, want %s", p.Jobs, ids[1])
	}
	byConcurrency := b.pipe(t, "jobs", "list", "--json", "--concurrency-key", "account-7")
	wantOK(t, byConcurrency)
	if p := decode[pipeline.Page](t, byConcurrency.stdout); len(p.Jobs) != 2 || p.Jobs[0].ID != ids[2] || p.Jobs[1].ID != ids[1] {
		t.Fatalf("list --concurrency-key account-7 = %+v, want %s and %s", p.Jobs, ids[2], ids[1])
	}
	both := b.pipe(t, "jobs", "list", "--key", "signup-1", "--concurrency-key", "account-7")
	wantOK(t, both)
	if both.stdout != "no jobs\n" {
		t.Fatalf("list --key signup-1 --concurrency-key account-7 printed %q", both.stdout)
	}
}

// Past 10,000 failed and dead runs a queue's counts are estimates, shown
// compact after a "~" and marked in the JSON.
func TestQueuesListShowsEstimates(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for _, sql := range []string{
		`insert into pipe.runs (id, run_id, name, queue, idem_key, input, state, max_attempts, finished_at)
		 select u, u, 'deep', 'deep', u::text, '{}', 'dead', 3, now() from (select gen_random_uuid() u from generate_series(1, 12000)) g`,
		`vacuum analyze pipe.runs`, // the owner's, as the statistics the estimate reads are
	} {
		if _, err := fixtures.Owner(t, b.pool).Exec(t.Context(), sql); err != nil {
			t.Fatal(err)
		}
	}
	b.enqueueDemo(t, "a")

	list := b.pipe(t, "queues", "list")
	wantOK(t, list)
	for _, row := range [][]string{{"deep", "no", "0", "0", "0", "0", "~0", "~12k"}, {"default", "no", "1", "0", "0", "0", "0", "0"}} {
		if !hasRow(list.stdout, row...) {
			t.Fatalf("list lacks the row %q:\n%s", row, list.stdout)
		}
	}
	got := decode[[]pipeline.QueueStats](t, b.pipe(t, "queues", "list", "--json").stdout)
	if len(got) != 2 || got[0].Estimated != (pipeline.Estimates{Finished: true}) || got[0].Dead < 10001 || got[1].Estimated != (pipeline.Estimates{}) {
		t.Fatalf("list --json = %+v", got)
	}
}
