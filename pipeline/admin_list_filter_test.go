package pipeline_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// Every filter answers the rows a plain query answers, in pages that walk
// from the newest run to the oldest across the partitions with the Next
// cursors and back with the Prev ones.
func TestTheListFiltersPageAcrossThePartitions(t *testing.T) {
	pool := fixtures.DB(t)
	listFill(t, pool, 1500, 40)
	for _, c := range listCases(t, pool) {
		listWantPages(t, pool, c, 25)
	}
}

// While the runs of an earlier layout wait in pipe.jobs_legacy, the list
// reads them beside the partitions, through the view.
func TestTheListReadsTheRunsStillToMove(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	listFill(t, pool, 600, 20)
	cols := `id, run_id, name, queue, tenant, idem_key, input, state, attempt, max_attempts, claims, worker_id,
		lease_until, run_at, created_at, started_at, finished_at, has_steps, result, last_error, progress,
		trace_parent, status, status_at, concurrency_key, transitions, sensitive`
	for _, sql := range []string{
		`create table pipe.jobs_legacy (like pipe.runs including defaults)`,
		`create or replace view pipe.jobs as select ` + cols + ` from pipe.runs union all select ` + cols + ` from pipe.jobs_legacy`,
		// Every third finished run moves back to the earlier layout.
		`with moved as (delete from pipe.runs where finished_at is not null and get_byte(uuid_send(id), 15) % 3 = 0 returning *)
		 insert into pipe.jobs_legacy select ` + cols + ` from moved`,
		`analyze pipe.jobs_legacy`,
	} {
		if _, err := fixtures.Owner(t, pool).Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	var legacy int
	if err := pool.QueryRow(ctx, `select count(*) from pipe.jobs_legacy`).Scan(&legacy); err != nil || legacy < 100 {
		t.Fatalf("%d runs in the earlier layout, %v", legacy, err)
	}
	for _, c := range listCases(t, pool) {
		listWantPages(t, pool, c, 40)
	}
}

// listWantPages walks c's pages of size limit forward to the last and back
// to the first, and holds the rows to a plain query of pipe.jobs.
func listWantPages(t *testing.T, pool *pgxpool.Pool, c listCase, limit int) {
	t.Helper()
	ctx := context.Background()
	rows, err := pool.Query(ctx, `select id::text from pipe.jobs where `+c.brute+` order by id desc`)
	if err != nil {
		t.Fatal(err)
	}
	want, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	if len(want) == 0 {
		t.Fatalf("%s: no run matches; the fill does not exercise the filter", c.name)
	}
	admin := pipeline.NewAdmin(pool)
	f := c.f
	f.Limit = limit
	var forward []string
	var last pipeline.Page
	for pages := 0; ; pages++ {
		p, err := admin.List(ctx, f)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(p.Jobs) == 0 || len(p.Jobs) > limit || (pages == 0) != (p.Prev == "") {
			t.Fatalf("%s: page %d has %d rows, prev %q", c.name, pages, len(p.Jobs), p.Prev)
		}
		forward = append(forward, pageIDs(p)...)
		last = p
		if p.Next == "" {
			break
		}
		f.After = p.Next
	}
	if !slices.Equal(forward, want) {
		t.Fatalf("%s: the pages forward hold %d rows, a plain query %d (%s)", c.name, len(forward), len(want), firstDiff(forward, want))
	}
	back := pageIDs(last)
	f.After = ""
	for p := last; p.Prev != ""; {
		f.Before = p.Prev
		if p, err = admin.List(ctx, f); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		back = append(pageIDs(p), back...)
	}
	if !slices.Equal(back, want) {
		t.Fatalf("%s: the pages backward hold %d rows, a plain query %d (%s)", c.name, len(back), len(want), firstDiff(back, want))
	}
}

func pageIDs(p pipeline.Page) []string {
	out := make([]string, len(p.Jobs))
	for i, j := range p.Jobs {
		out[i] = j.ID
	}
	return out
}

// An id prefix finds the ids whose text starts with it, dashes and all,
// at the ends of the id space too, and none when a dash is out of place.
func TestTheIDPrefixMatchesTheIDsText(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	if _, err := pool.Exec(ctx, `insert into pipe.runs (id, run_id, name, queue, idem_key, input, state, max_attempts)
		select u, u, 'prefix', 'q', u::text, '{}', 'ready', 3 from unnest($1::uuid[]) u`, []string{
		"00000000-0000-7000-8000-000000000000", "0fffffff-ffff-7fff-bfff-ffffffffffff", "10000000-0000-7000-8000-000000000000",
		"01a2b3c4-d5e6-7f00-8000-000000000001", "01a2b3c4-d5e6-7f00-8000-000000000002", "01a2b3c5-0000-7000-8000-000000000000",
		"ffffffff-ffff-7fff-bfff-ffffffffffff", "fffffffe-ffff-7fff-bfff-ffffffffffff", "9fffffff-ffff-7fff-bfff-ffffffffffff",
	}); err != nil {
		t.Fatal(err)
	}
	admin := pipeline.NewAdmin(pool)
	for _, prefix := range []string{
		"0", "0f", "0fffffff-", "0fffffff-ffff-7fff-bfff-ffffffffffff", "1", "9", "a", "f", "ffffffff", "ffffffff-ffff",
		"fffffffe-", "01a2b3c4", "01a2b3c4-d5e6-7f00-8000-00000000000", "01a2b3c4d", "01a2-", "-", "01a2b3c4-d5e6-7f00-8000-000000000002",
	} {
		page, err := admin.List(ctx, pipeline.ListFilter{IDPrefix: prefix, Limit: pipeline.MaxJobPage})
		if err != nil {
			t.Fatalf("%q: %v", prefix, err)
		}
		rows, err := pool.Query(ctx, `select id::text from pipe.jobs where id::text like $1 || '%' order by id desc`, prefix)
		if err != nil {
			t.Fatal(err)
		}
		want, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		if got := pageIDs(page); !slices.Equal(got, want) {
			t.Errorf("%q: List answered %v; like answers %v", prefix, got, want)
		}
	}
}

// A created range finds a run whose enqueuing process's clock stood up to
// minutes off the database's: its created_at (the database's clock) four
// minutes either side of the time its id carries (the process's).
func TestACreatedRangeFindsARunEnqueuedByASkewedClock(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	j := pipeline.MustJob("skewed", keyK, func(context.Context, *pipeline.Run[noInput]) (int, error) { return 0, nil })
	for _, c := range []struct {
		key  string
		skew string
	}{{"ahead", "4 minutes"}, {"behind", "-4 minutes"}} {
		res, err := j.Enqueue(ctx, pool, noInput{K: c.key})
		if err != nil {
			t.Fatal(err)
		}
		var created time.Time
		if err := pool.QueryRow(ctx, `update pipe.runs set created_at = created_at + $2::interval
			where id = $1 returning created_at`, res.ID, c.skew).Scan(&created); err != nil {
			t.Fatal(err)
		}
		page, err := pipeline.NewAdmin(pool).List(ctx, pipeline.ListFilter{
			CreatedFrom: created.Add(-time.Second), CreatedTo: created.Add(time.Second)})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Jobs) != 1 || page.Jobs[0].ID != res.ID {
			t.Errorf("a run created %s off its id's time: the range answered %d runs", c.skew, len(page.Jobs))
		}
	}
}
