package devtools_test

import (
	"slices"
	"testing"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// jobs.list filters by idempotency key and by concurrency key, as `pipe
// jobs list --key --concurrency-key` does.
func TestJobsListFiltersByKeyAndConcurrencyKey(t *testing.T) {
	pool := fixtures.DB(t)
	ids := map[string]string{}
	for _, id := range []string{"o-1", "o-2", "o-3"} {
		res, err := failing.Enqueue(t.Context(), pool, order{ID: id})
		if err != nil {
			t.Fatal(err)
		}
		ids[id] = res.ID
	}
	if _, err := pool.Exec(t.Context(), `update pipe.runs set concurrency_key = 'card-4' where idem_key <> 'o-1'`); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, pipeline.NewAdmin(pool), nil)
	for _, c := range []struct {
		args map[string]any
		want []string
	}{
		{map[string]any{"key": "o-2"}, []string{ids["o-2"]}},
		{map[string]any{"concurrencyKey": "card-4"}, []string{ids["o-3"], ids["o-2"]}},
		{map[string]any{"key": "o-1", "concurrencyKey": "card-4"}, nil},
	} {
		var page pipeline.Page
		if isErr, text := call(t, cs, "jobs.list", c.args, &page); isErr {
			t.Fatalf("jobs.list %v: %s", c.args, text)
		}
		var got []string
		for _, j := range page.Jobs {
			got = append(got, j.ID)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("jobs.list %v = %v; want %v", c.args, got, c.want)
		}
	}
}
