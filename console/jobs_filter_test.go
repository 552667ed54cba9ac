package console_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/pipekit/pipe/console"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// The jobs page filters by idempotency key and concurrency key, keeps them
// in its form, and carries them into its paging links.
func TestTheJobsPageFiltersByKeyAndConcurrencyKey(t *testing.T) {
	pool := fixtures.DB(t)
	ids := map[string]string{}
	for _, note := range []string{"alpha", "beta", "gamma"} {
		res, err := hostileJob.Enqueue(t.Context(), pool, hostile{Note: note})
		if err != nil {
			t.Fatal(err)
		}
		ids[note] = res.ID
	}
	if _, err := pool.Exec(t.Context(), `update pipe.runs set concurrency_key = 'account-9' where idem_key <> 'alpha'`); err != nil {
		t.Fatal(err)
	}
	srv := consoleOn(t, pipeline.NewAdmin(pool), console.Options{})

	for _, tc := range []struct {
		query      string
		want, not  []string
		formFields []string
	}{
		{"key=beta", []string{ids["beta"]}, []string{ids["alpha"], ids["gamma"]}, []string{`name="key" value="beta"`}},
		{"concurrency_key=account-9", []string{ids["beta"], ids["gamma"]}, []string{ids["alpha"]},
			[]string{`name="concurrency_key" value="account-9"`}},
		{"key=alpha&concurrency_key=account-9", nil, []string{ids["alpha"], ids["beta"], ids["gamma"]}, nil},
	} {
		code, _, body := get(t, srv.Client(), srv.URL+"/jobs?"+tc.query)
		if code != http.StatusOK {
			t.Fatalf("%s: %d %s", tc.query, code, body)
		}
		for _, id := range tc.want {
			if !strings.Contains(body, id) {
				t.Errorf("%s: the page lacks %s", tc.query, id)
			}
		}
		for _, id := range tc.not {
			if strings.Contains(body, id) {
				t.Errorf("%s: the page shows %s", tc.query, id)
			}
		}
		for _, field := range tc.formFields {
			if !strings.Contains(body, field) {
				t.Errorf("%s: the form lacks %s", tc.query, field)
			}
		}
	}

	_, _, body := get(t, srv.Client(), srv.URL+"/jobs?concurrency_key=account-9&limit=1")
	next := regexp.MustCompile(`href="(/jobs\?[^"]*)" rel="next"`).FindStringSubmatch(body)
	if next == nil || !strings.Contains(next[1], "concurrency_key=account-9") {
		t.Fatalf("the next page's link drops the filter: %v", next)
	}
	_, _, body = get(t, srv.Client(), srv.URL+strings.ReplaceAll(next[1], "&amp;", "&"))
	if !strings.Contains(body, ids["beta"]) || strings.Contains(body, ids["alpha"]) {
		t.Fatal("the next page is not the filter's second run")
	}
}

// Past 10,000 failed and dead runs, the queues page shows a queue's counts
// as estimates.
func TestTheQueuesPageShowsEstimates(t *testing.T) {
	pool := fixtures.DB(t)
	for _, sql := range []string{
		`insert into pipe.runs (id, run_id, name, queue, idem_key, input, state, max_attempts, finished_at)
		 select u, u, 'deep', 'deep', u::text, '{}', 'dead', 3, now() from (select gen_random_uuid() u from generate_series(1, 12000)) g`,
		`vacuum analyze pipe.runs`, // the owner's, as the statistics the estimate reads are
	} {
		if _, err := fixtures.Owner(t, pool).Exec(t.Context(), sql); err != nil {
			t.Fatal(err)
		}
	}
	srv := consoleOn(t, pipeline.NewAdmin(pool), console.Options{})
	code, _, body := get(t, srv.Client(), srv.URL+"/")
	if code != http.StatusOK || !strings.Contains(body, `state=dead">~12k</a>`) || !strings.Contains(body, "<td>~0</td>") {
		t.Fatalf("%d: the queues page does not show the estimates:\n%s", code, body)
	}
}
