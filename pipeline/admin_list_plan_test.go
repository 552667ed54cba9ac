package pipeline_test

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// listFill inserts n finished runs into pipe.runs, spread evenly over the
// 12 weeks before now (done and cancelled ones in the daily partitions and,
// past their 15 days, the old edge; dead and failed ones in the weekly),
// and open ready runs, each with a UUIDv7
// id of its created_at; then it analyzes them. The (empty) partitions the
// migration made are replaced by the retention's worth behind now, which
// pipe.ensure_run_partitions makes in a tree with none. Run i has name job-(i%20),
// queue q-(i%7), tenant t-(i%11) when i%3 = 0, key k-(i%5000) and
// concurrency key c-(i%13) when i%4 = 0.
func listFill(t *testing.T, pool *pgxpool.Pool, n, open int) {
	t.Helper()
	ctx := context.Background()
	insert := `insert into pipe.runs (id, run_id, name, queue, tenant, idem_key, input, state, max_attempts,
			run_at, created_at, finished_at, concurrency_key)
		select u, u, 'job-' || i % 20, 'q-' || i % 7, case when i % 3 = 0 then 't-' || i % 11 else '' end,
			'k-' || i % 5000, '{}', s, 3, c, c, f, case when i % 4 = 0 then 'c-' || i % 13 end
		from (select i, c, f, s,
				encode(overlay(uuid_send(gen_random_uuid()) placing substring(int8send((extract(epoch from c) * 1000)::bigint) from 3)
					from 1 for 6), 'hex')::uuid u
			from (select i, now() - i * $3::interval - interval '1 minute' c,
					case when $4 then null else now() - i * $3::interval end f,
					case when $4 then 'ready' else (array['dead', 'failed', 'cancelled', 'done', 'done', 'done'])[1 + i % 6] end s
				from generate_series($1::int, $2::int) i) g) g`
	step := (12 * 7 * 24 * time.Hour / time.Duration(n)).String()
	for _, sql := range []struct {
		q    string
		args []any
	}{
		{`do $$ declare p text; begin
			for p in select name from pipe.run_partitions() loop execute format('drop table pipe.%I', p); end loop;
		end $$`, nil},
		{`select pipe.ensure_run_partitions(now(), true)`, nil},
		{insert, []any{1, n, step, false}},
		{insert, []any{n + 1, n + open, "1 millisecond", true}},
		{`vacuum analyze pipe.runs`, nil},
	} {
		if _, err := fixtures.Owner(t, pool).Exec(ctx, sql.q, sql.args...); err != nil {
			t.Fatal(err)
		}
	}
}

// listCase is one filter, and the same rows asked of pipe.runs the plain
// way.
type listCase struct {
	name  string
	f     pipeline.ListFilter
	brute string
}

// listCases are the filters the operator's list offers, alone and in the
// combinations asked most, over the rows of listFill.
func listCases(t *testing.T, pool *pgxpool.Pool) []listCase {
	t.Helper()
	var mid string
	if err := pool.QueryRow(context.Background(), `select id::text from pipe.runs_dead order by id
		offset (select count(*) / 2 from pipe.runs_dead) limit 1`).Scan(&mid); err != nil {
		t.Fatal(err)
	}
	from := time.Now().Add(-80 * time.Hour).UTC().Truncate(time.Second)
	to := from.Add(6 * time.Hour)
	early := time.Now().Add(-80 * 24 * time.Hour).UTC().Truncate(time.Second)
	ts := func(t time.Time) string { return "'" + t.Format(time.RFC3339Nano) + "'::timestamptz" }
	return []listCase{
		{"none", pipeline.ListFilter{}, "true"},
		{"name", pipeline.ListFilter{Name: "job-3"}, "name = 'job-3'"},
		{"queue", pipeline.ListFilter{Queue: "q-2"}, "queue = 'q-2'"},
		{"tenant", pipeline.ListFilter{Tenant: "t-5"}, "tenant = 't-5'"},
		{"state done", pipeline.ListFilter{State: "done"}, "state = 'done'"},
		{"state cancelled", pipeline.ListFilter{State: "cancelled"}, "state = 'cancelled'"},
		{"state dead", pipeline.ListFilter{State: "dead"}, "state = 'dead'"},
		{"state failed", pipeline.ListFilter{State: "failed"}, "state = 'failed'"},
		{"state ready", pipeline.ListFilter{State: "ready"}, "state = 'ready'"},
		{"key", pipeline.ListFilter{Key: "k-42"}, "idem_key = 'k-42'"},
		{"concurrency key", pipeline.ListFilter{ConcurrencyKey: "c-7"}, "concurrency_key = 'c-7'"},
		{"id prefix", pipeline.ListFilter{IDPrefix: mid[:11]}, "id::text like '" + mid[:11] + "%'"},
		{"id prefix without its dash", pipeline.ListFilter{IDPrefix: mid[:8]}, "id::text like '" + mid[:8] + "%'"},
		{"created range", pipeline.ListFilter{CreatedFrom: from, CreatedTo: to},
			"created_at >= " + ts(from) + " and created_at < " + ts(to)},
		{"created from", pipeline.ListFilter{CreatedFrom: from.Add(50 * time.Hour)}, "created_at >= " + ts(from.Add(50*time.Hour))},
		{"created to", pipeline.ListFilter{CreatedTo: early}, "created_at < " + ts(early)},
		{"name and state", pipeline.ListFilter{Name: "job-5", State: "failed"}, "name = 'job-5' and state = 'failed'"},
		{"queue and tenant", pipeline.ListFilter{Queue: "q-3", Tenant: "t-2"}, "queue = 'q-3' and tenant = 't-2'"},
	}
}

// listIndexes are the indexes a filter is read through: the finished
// trees' and, for the filters the claim's indexes do not answer, the open
// runs'.
var listIndexes = map[string][]string{
	"name":             {"runs_done_name", "runs_dead_name"},
	"queue":            {"runs_done_queue", "runs_dead_queue"},
	"tenant":           {"runs_done_tenant", "runs_dead_tenant", "runs_open_tenant"},
	"key":              {"runs_done_key", "runs_dead_key"},
	"concurrency key":  {"runs_done_concurrency_key", "runs_dead_concurrency_key", "runs_open_concurrency_key"},
	"queue and tenant": {"runs_open_tenant"},
	"id prefix":        {"runs_done_id", "runs_dead_id"},
	"created range":    {"runs_done_id", "runs_dead_id"},
	"state done":       {"runs_done_id"},
	"state dead":       {"runs_dead_id"},
}

// customIndexes are the indexes a custom plan reads for a filter besides
// listIndexes': the open runs' key index, which is not in id order (it is
// the enqueue's unique index, leading with the key), so that a generic
// plan, which prices a LIMIT $n at a tenth of the rows, may read the few
// open runs here in id order instead; at 100,000 open runs it reads the
// index too (pipe bench store shows it).
var customIndexes = map[string][]string{
	"key": {"runs_open_live_key"},
}

// Every filter of the operator's list reads the finished partitions
// through an index, never a sequential scan of one, on the plan List's own
// statement gets (custom, and generic as a statement kept for a
// connection makes after five runs), and answers the rows a plain query
// answers.
func TestTheListReadsEveryFilterThroughAnIndex(t *testing.T) {
	if testing.Short() {
		t.Skip("fills 100,000 runs")
	}
	pool := fixtures.DB(t)
	listFill(t, pool, 100000, 2000)
	filled, parents := filledPartitions(t, pool), indexParents(t, pool)
	for _, c := range listCases(t, pool) {
		for _, mode := range []string{"force_custom_plan", "force_generic_plan"} {
			f := c.f
			f.Limit = pipeline.MaxJobPage
			sql, args, err := pipeline.ListStatement(f)
			if err != nil {
				t.Fatal(err)
			}
			plan := listExplain(t, pool, mode, sql, args)
			for _, m := range seqScan.FindAllStringSubmatch(plan, -1) {
				if filled[m[1]] {
					t.Errorf("%s (%s) reads the partition %s whole:\n%s\n%s", c.name, mode, m[1], sql, plan)
				}
			}
			read := indexesRead(plan, parents)
			want := listIndexes[c.name]
			if mode == "force_custom_plan" {
				want = append(slices.Clone(want), customIndexes[c.name]...)
			}
			for _, want := range want {
				if !slices.Contains(read, want) {
					t.Errorf("%s (%s) reads %v, not %s:\n%s", c.name, mode, read, want, plan)
				}
			}
			if testing.Verbose() {
				t.Logf("%s (%s) reads %v", c.name, mode, read)
			}
		}
		listWantBrute(t, pool, c)
	}
}

// listWantBrute holds the first page List answers for c to the rows a
// plain query of pipe.jobs answers, and asks that there be some.
func listWantBrute(t *testing.T, pool *pgxpool.Pool, c listCase) {
	t.Helper()
	ctx := context.Background()
	f := c.f
	f.Limit = pipeline.MaxJobPage
	page, err := pipeline.NewAdmin(pool).List(ctx, f)
	if err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	got := make([]string, len(page.Jobs))
	for i, j := range page.Jobs {
		got[i] = j.ID
	}
	rows, err := pool.Query(ctx, `select id::text from pipe.jobs where `+c.brute+` order by id desc limit `+strconv.Itoa(pipeline.MaxJobPage))
	if err != nil {
		t.Fatal(err)
	}
	want, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) || len(want) == 0 {
		t.Errorf("%s: List answered %d rows, a plain query %d (%s)", c.name, len(got), len(want), firstDiff(got, want))
	}
}

// firstDiff answers where two id lists first differ.
func firstDiff(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("at %d: %s, %s", i, a[i], b[i])
		}
	}
	return "one is the other's start"
}
