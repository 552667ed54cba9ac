package pipecli_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pipekit/pipe/cmd/pipe/pipecli"
	"github.com/pipekit/pipe/rollup"
	"github.com/pipekit/pipe/views"
)

// rollupDDL and rollupConfig are a small project: orders rolled up per day
// in New York, and a materialized view of totals per org.
const rollupDDL = `
create table orders (id bigserial primary key, org_id int not null, total bigint not null, created_at timestamptz not null);
create index on orders (created_at);
insert into orders (org_id, total, created_at)
	select i % 3, i, now() - (i || ' minutes')::interval from generate_series(1, 600) i;
create table orders_daily (org_id int, day timestamptz, orders bigint, revenue bigint, primary key (org_id, day));
create materialized view org_totals as select org_id, count(*) as n from orders group by org_id;
create unique index on org_totals (org_id);`

const rollupConfig = `{
  "rollups": [{"name": "orders-daily", "into": "orders_daily", "key": ["org_id", "day"], "lookback": "2d",
    "bucket": {"unit": "day", "zone": "America/New_York", "column": "day"},
    "source": {"table": "orders", "time": "created_at", "groupBy": ["org_id"],
      "aggregates": [{"func": "count", "into": "orders"}, {"func": "sum", "column": "total", "into": "revenue"}]}}],
  "views": [{"name": "refresh-org-totals", "view": "org_totals", "concurrently": true}],
  "tasks": [{"name": "every-5m", "cron": "*/5 * * * *", "zone": "UTC", "run": ["orders-daily", "refresh-org-totals"]}]
}`

func writeConfig(t *testing.T, doc string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "pipe.json")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRollupRunWaitsAndIsIdempotent(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, rollupDDL)
	cfg := writeConfig(t, rollupConfig)
	r := b.pipe(t, "rollup", "run", "orders-daily", "--config", cfg, "--wait", "--json")
	wantOK(t, r)
	res := decode[rollup.Result](t, r.stdout)
	if res.Rows != 600 || res.Buckets == 0 || res.Written != res.Buckets {
		t.Fatalf("first run %+v; want the 600 orders in their buckets, all written", res)
	}
	var n int64
	if err := b.pool.QueryRow(t.Context(), `select sum(orders) from orders_daily`).Scan(&n); err != nil || n != 600 {
		t.Fatalf("orders_daily counts %d orders (%v)", n, err)
	}
	r = b.pipe(t, "rollup", "run", "orders-daily", "--config", cfg, "--wait")
	wantOK(t, r)
	if !strings.Contains(r.stdout, "rolled up 600 rows into") || !strings.Contains(r.stdout, "(0 written)") {
		t.Fatalf("the re-run printed %q", r.stdout)
	}
	r = b.pipe(t, "rollup", "run", "orders-daily", "--config", cfg, "--from", "2020-01-01", "--json")
	wantOK(t, r)
	if q := decodeLoose[struct{ ID string }](t, r.stdout); q.ID == "" {
		t.Fatalf("enqueue printed %q", r.stdout)
	}
	wantError(t, b.pipe(t, "rollup", "run", "nope", "--config", cfg), 1, "X_JOB_UNKNOWN")
	wantError(t, b.pipe(t, "rollup", "run", "orders-daily", "--config", cfg, "--from", "yesterday"), 2, "X_CONFIG_INVALID")
	wantError(t, b.pipe(t, "rollup", "run", "orders-daily", "--config", filepath.Join(t.TempDir(), "none.json")), 1, "X_CONFIG_INVALID")
}

func TestViewsRefresh(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, rollupDDL+`; create view plain as select 1 as one`)
	b.exec(t, `insert into orders (org_id, total, created_at) values (9, 1, now())`)
	r := b.pipe(t, "views", "refresh", "org_totals", "--concurrently", "--wait", "--json")
	wantOK(t, r)
	if res := decode[views.Result](t, r.stdout); !res.Concurrently || res.View != "org_totals" {
		t.Fatalf("refresh %+v", res)
	}
	var n int64
	if err := b.pool.QueryRow(t.Context(), `select n from org_totals where org_id = 9`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("the new org is not in the view: %d %v", n, err)
	}
	wantError(t, b.pipe(t, "views", "refresh", "orders", "--wait"), 1, "X_JOB_REFRESH_VIEW_INVALID")
	wantError(t, b.pipe(t, "views", "refresh", "plain", "--wait"), 1, "X_JOB_REFRESH_VIEW_INVALID")
	if r := b.pipe(t, "views", "refresh", "org_totals"); r.code != 0 || !strings.Contains(r.stdout, "enqueued pipe.views.refresh") {
		t.Fatalf("enqueue: %d %s %s", r.code, r.stdout, r.stderr)
	}
}

// pipe verify --config names every declaration, and exits non-zero naming
// each fault once the catalog no longer holds them.
func TestVerifyConfig(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, rollupDDL)
	cfg := writeConfig(t, rollupConfig)
	r := b.pipe(t, "verify", "--config", cfg)
	wantOK(t, r)
	for _, line := range []string{"ok    rollup orders-daily", "ok    view refresh-org-totals", "2 declaration(s) checked, 0 fault(s)"} {
		if !strings.Contains(r.stdout, line) {
			t.Fatalf("verify printed %q; want %q", r.stdout, line)
		}
	}
	b.exec(t, `alter table orders_daily drop constraint orders_daily_pkey; drop index org_totals_org_id_idx`)
	r = b.pipe(t, "verify", "--config", cfg)
	if r.code != 1 || !strings.HasPrefix(r.stderr, "error X_JOB_ROLLUP_INVALID: 2 of 2 declaration(s) fail") {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	for _, want := range []string{"FAIL  rollup orders-daily: X_JOB_ROLLUP_INVALID", "no unique index on orders_daily covers exactly the rollups[0].key",
		"FAIL  view refresh-org-totals: X_JOB_REFRESH_VIEW_INVALID", "2 declaration(s) checked, 2 fault(s)"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("verify printed %q; want %q", r.stdout, want)
		}
	}
	r = b.pipe(t, "verify", "--config", cfg, "--json")
	if found := decodeLoose[[]map[string]any](t, r.stdout); r.code != 1 || len(found) != 2 || found[0]["ok"] != false {
		t.Fatalf("--json: %d %s", r.code, r.stdout)
	}
	bad := writeConfig(t, `{"rollups": [{"name": "r"}]}`)
	wantError(t, b.pipe(t, "verify", "--config", bad), 1, "X_JOB_ROLLUP_INVALID")
	wantOK(t, b.pipe(t, "verify")) // the stock jobs check nothing that is missing
}

// pipe worker --config runs the file's rollups and refreshes, with a
// scheduler that arms its tasks; a file whose catalog does not hold stops
// the worker before it starts, naming each fault.
func TestWorkerRunsTheProjectFile(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, rollupDDL)
	cfg := writeConfig(t, rollupConfig)
	r := b.pipe(t, "rollup", "run", "orders-daily", "--config", cfg, "--json")
	wantOK(t, r)
	id := decodeLoose[struct{ ID string }](t, r.stdout).ID
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan result, 1)
	go func() { done <- execute(ctx, pipecli.Options{}, "--database-url", b.url, "worker", "--config", cfg) }()
	if d := b.waitSettled(t, id); d.State != "done" {
		t.Fatalf("the worker ran the rollup to %s", d.State)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		var armed bool
		if err := b.pool.QueryRow(t.Context(), `select exists (select 1 from pipe.task_state where task = 'every-5m')`).Scan(&armed); err != nil {
			t.Fatal(err)
		}
		if armed {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the scheduler never armed the file's task")
		}
	}
	cancel()
	wantOK(t, <-done)

	b.exec(t, `drop index org_totals_org_id_idx; alter table orders_daily drop constraint orders_daily_pkey`)
	r = execute(t.Context(), pipecli.Options{}, "--database-url", b.url, "worker", "--config", cfg)
	if r.code != 1 || !strings.Contains(r.stderr, "X_JOB_ROLLUP_INVALID") || !strings.Contains(r.stderr, "X_JOB_REFRESH_VIEW_INVALID") {
		t.Fatalf("a worker over a broken catalog: exit %d\n%s", r.code, r.stderr)
	}
}

// pipe dev --config runs the file's rollups and arms its tasks too.
func TestDevRunsTheProjectFile(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, rollupDDL)
	cfg := writeConfig(t, rollupConfig)
	dev := b.start(t, pipecli.Options{}, "dev", "--config", cfg)
	r := b.pipe(t, "rollup", "run", "orders-daily", "--config", cfg, "--json")
	wantOK(t, r)
	if d := b.waitSettled(t, decodeLoose[struct{ ID string }](t, r.stdout).ID); d.State != "done" {
		t.Fatalf("dev ran the rollup to %s", d.State)
	}
	waitFor(t, "the task armed", func() bool { return b.armed(t, "every-5m") })
	wantOK(t, dev.wait())
}

// `pipe tasks list --config` shows the project file's tasks as declared:
// cron, zone and a next run.
func TestTasksListReadsTheProjectFile(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, rollupDDL)
	cfg := writeConfig(t, rollupConfig)
	r := b.pipe(t, "tasks", "list", "--config", cfg, "--json")
	wantOK(t, r)
	rows := decodeLoose[[]struct {
		Task     string
		Declared bool
		Cron     string
		NextRun  *time.Time
	}](t, r.stdout)
	if len(rows) != 1 || rows[0].Task != "every-5m" || !rows[0].Declared || rows[0].Cron != "*/5 * * * *" || rows[0].NextRun == nil {
		t.Fatalf("tasks %+v; want the file's every-5m, declared, with a next run", rows)
	}
}
