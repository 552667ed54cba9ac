package pipecli_test

import (
	"strings"
	"testing"
	"time"

	"github.com/pipekit/pipe/rollup"
	"github.com/pipekit/pipe/views"
)

// `pipe rollup run` checks the declaration against the catalog before it
// enqueues: a fault exits 1 with its code, naming the file's keys, and
// leaves no run.
func TestRollupRunRefusesBeforeEnqueueing(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, rollupDDL+`; alter table orders_daily drop constraint orders_daily_pkey`)
	cfg := writeConfig(t, rollupConfig)
	for _, args := range [][]string{{"--wait"}, {}} {
		r := b.pipe(t, append([]string{"rollup", "run", "orders-daily", "--config", cfg}, args...)...)
		wantError(t, r, 1, "X_JOB_ROLLUP_INVALID")
		if !strings.Contains(r.stderr, "no unique index on orders_daily covers exactly the rollups[0].key") {
			t.Fatalf("the refusal does not name the file's key:\n%s", r.stderr)
		}
	}
	if n := b.count(t, `select count(*) from pipe.jobs`); n != 0 {
		t.Fatalf("%d runs left behind by a refused rollup", n)
	}
}

// --as-of replays a run for a past now: the instant is the run's own input
// and its window's now; a daily bucket kept in a date column works end to
// end from pipe.json.
func TestRollupRunAsOfIntoADateColumn(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, strings.Replace(rollupDDL, "day timestamptz", "day date", 1))
	cfg := writeConfig(t, rollupConfig)
	asOf := time.Now().Add(-10 * 24 * time.Hour).UTC().Truncate(time.Second)
	r := b.pipe(t, "rollup", "run", "orders-daily", "--config", cfg, "--as-of", asOf.Format(time.RFC3339), "--wait", "--json")
	wantOK(t, r)
	res := decode[rollup.Result](t, r.stdout)
	ny, _ := time.LoadLocation("America/New_York")
	local := asOf.Add(-48 * time.Hour).In(ny)
	since := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, ny)
	if !res.Now.Equal(asOf) || !res.Since.Equal(since) || res.Rows != 600 {
		t.Fatalf("as of %s: %+v; want now %s, since %s, all 600 orders read", asOf, res, asOf, since)
	}
	var input string
	if err := b.pool.QueryRow(t.Context(), `select input::text from pipe.jobs`).Scan(&input); err != nil || !strings.Contains(input, asOf.Format(time.RFC3339)) {
		t.Fatalf("the run's input %s (%v) does not carry the as-of instant", input, err)
	}
	var days, orders int64
	if err := b.pool.QueryRow(t.Context(), `select count(distinct day), sum(orders) from orders_daily
		where day = any(array[(now() at time zone 'America/New_York')::date, (now() at time zone 'America/New_York')::date - 1])`).Scan(&days, &orders); err != nil || orders != 600 || days == 0 {
		t.Fatalf("orders_daily holds %d orders on %d local days (%v); want the 600 on New York's dates", orders, days, err)
	}
	wantError(t, b.pipe(t, "rollup", "run", "orders-daily", "--config", cfg, "--as-of", "soon"), 2, "X_CONFIG_INVALID")
	wantError(t, b.pipe(t, "rollup", "run", "orders-daily", "--config", cfg, "--as-of", time.Now().Add(time.Hour).Format(time.RFC3339)), 2, "X_CONFIG_INVALID")
}

// A view refresh pipe.json declares runs by its name; a declaration the
// catalog refuses leaves no run.
func TestViewsRefreshByDeclaredName(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, rollupDDL)
	cfg := writeConfig(t, rollupConfig)
	b.exec(t, `insert into orders (org_id, total, created_at) values (9, 1, now())`)
	r := b.pipe(t, "views", "refresh", "refresh-org-totals", "--config", cfg, "--wait", "--json")
	wantOK(t, r)
	if res := decode[views.Result](t, r.stdout); !res.Concurrently || res.View != "org_totals" {
		t.Fatalf("the declared refresh answered %+v; want org_totals, concurrently as declared", res)
	}
	if n := b.count(t, `select count(*) from org_totals where org_id = 9`); n != 1 {
		t.Fatalf("the view was not refreshed")
	}
	var name string
	if err := b.pool.QueryRow(t.Context(), `select name from pipe.jobs`).Scan(&name); err != nil || name != "refresh-org-totals" {
		t.Fatalf("the run is of %q (%v); want the declared job", name, err)
	}
	b.exec(t, `drop index org_totals_org_id_idx; delete from pipe.runs`)
	wantError(t, b.pipe(t, "views", "refresh", "refresh-org-totals", "--config", cfg), 1, "X_JOB_REFRESH_VIEW_INVALID")
	if n := b.count(t, `select count(*) from pipe.jobs`); n != 0 {
		t.Fatalf("%d runs left behind by a refused refresh", n)
	}
}
