package views_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/views"
)

const totalsDDL = `
create table likes (post_id int not null, org_id int not null);
insert into likes select i % 10, i % 3 from generate_series(1, 100) i;
create materialized view post_totals as select post_id, count(*) as total from likes group by post_id;
create unique index on post_totals (post_id);`

func setup(t testing.TB, ddl string) *pgxpool.Pool {
	t.Helper()
	pool := fixtures.DB(t)
	if _, err := pool.Exec(context.Background(), ddl); err != nil {
		t.Fatal(err)
	}
	return pool
}

func refresh(name, view string, concurrently bool) *pipeline.Job[views.Request, views.Result] {
	return views.MustRefresh(views.Options{Name: name, View: pg.MustParseRelation(view), Concurrently: concurrently,
		Job: pipeline.JobOptions[views.Request, views.Result]{Retry: &pipeline.Retry{Attempts: 3, Delay: 10 * time.Millisecond}}})
}

func total(t testing.TB, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}) int64 {
	t.Helper()
	var n int64
	if err := q.QueryRow(context.Background(), `select coalesce(sum(total), 0) from post_totals`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A reader in a repeatable-read transaction keeps reading the old rows
// while REFRESH ... CONCURRENTLY runs and completes; once it commits, it
// reads the new ones.
func TestAConcurrentRefreshLeavesAReaderTheOldRows(t *testing.T) {
	pool := setup(t, totalsDDL)
	ctx := context.Background()
	reader, err := pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead})
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Rollback(ctx)
	if n := total(t, reader); n != 100 {
		t.Fatalf("before: %d", n)
	}
	if _, err := pool.Exec(ctx, `insert into likes select 1, 1 from generate_series(1, 50)`); err != nil {
		t.Fatal(err)
	}
	d, res := fixtures.Run(t, pool, refresh("refresh-post-totals", "post_totals", true), views.Request{})
	if d.State != "done" || !res.Concurrently || !res.WasPopulated || len(d.Steps) != 1 {
		t.Fatalf("refresh %s %+v, %d steps", d.State, res, len(d.Steps))
	}
	if n := total(t, pool); n != 150 {
		t.Fatalf("after the refresh a new reader reads %d; want 150", n)
	}
	if n := total(t, reader); n != 100 {
		t.Fatalf("the reader holding its snapshot reads %d; want the old 100", n)
	}
	if err := reader.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if n := total(t, pool); n != 150 {
		t.Fatalf("after its commit the reader reads %d", n)
	}
}

// A plain refresh, by contrast, waits for the reader (it takes an ACCESS
// EXCLUSIVE lock), and completes once the reader is gone.
func TestAPlainRefreshWaitsForReaders(t *testing.T) {
	pool := setup(t, totalsDDL)
	ctx := context.Background()
	reader, err := pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead})
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Rollback(ctx)
	total(t, reader)
	job := refresh("refresh-plain", "post_totals", false)
	fixtures.StartWorker(t, pool, job)
	enq, err := job.Enqueue(ctx, pool, views.Request{})
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		var waiting bool
		if err := pool.QueryRow(ctx, `select exists (select 1 from pg_stat_activity
			where datname = current_database() and wait_event_type = 'Lock' and query like 'refresh materialized view %')`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the plain refresh never waited for the reader")
		}
	}
	if err := reader.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if d := fixtures.AwaitSettled(t, pool, enq.ID); d.State != "done" {
		t.Fatalf("after the reader left: %s", d.State)
	}
}

// A view made WITH NO DATA cannot be refreshed concurrently, and no one
// can read it yet: its first refresh is a plain one.
func TestAnUnpopulatedViewIsRefreshedPlainly(t *testing.T) {
	pool := setup(t, `create table likes (post_id int); insert into likes values (1), (1);
		create materialized view post_totals as select post_id, count(*) as total from likes group by post_id with no data;
		create unique index on post_totals (post_id);`)
	d, res := fixtures.Run(t, pool, refresh("refresh-first", "post_totals", true), views.Request{})
	if d.State != "done" || res.Concurrently || res.WasPopulated || total(t, pool) != 2 {
		t.Fatalf("first refresh: %s %+v", d.State, res)
	}
}

// Every refusal is X_JOB_REFRESH_VIEW_INVALID: at declaration, against the
// catalog (Registry.Verify, Worker.Start), and, for the stock job, when
// the run starts (terminal, first attempt).
func TestRefusals(t *testing.T) {
	_, err := views.Refresh(views.Options{View: pg.Relation{Name: strings.Repeat("v", 64)}, Job: pipeline.JobOptions[views.Request, views.Result]{Tenant: func(views.Request) string { return "t" }}})
	for _, f := range []string{"Name is empty", "View: the relation name vvv", "is 64 bytes", "Job.Tenant is set"} {
		if !errors.Is(err, errcode.JobRefreshViewInvalid) || !strings.Contains(err.Error(), f) {
			t.Errorf("declaration: %v; want %q", err, f)
		}
	}
	pool := setup(t, totalsDDL+`
		create view plain_totals as select post_id, count(*) from likes group by post_id;
		create materialized view no_index as select post_id from likes;
		create materialized view partial_index as select post_id from likes group by post_id;
		create unique index on partial_index (post_id) where post_id > 0;
		create materialized view expr_index as select post_id from likes group by post_id;
		create unique index on expr_index ((post_id + 1));`)
	for view, tc := range map[string]struct {
		concurrently bool
		fault        string
	}{
		"likes":         {false, "likes is a table, not a materialized view"},
		"plain_totals":  {false, "plain_totals is a plain view"},
		"nope":          {false, "nope does not exist"},
		"no_index":      {true, "concurrently needs a unique index on no_index"},
		"partial_index": {true, "concurrently needs a unique index on partial_index"},
		"expr_index":    {true, "concurrently needs a unique index on expr_index"},
	} {
		reg, err := pipeline.NewRegistry(refresh("refresh-"+view, view, tc.concurrently))
		if err != nil {
			t.Fatal(err)
		}
		if err := reg.Verify(context.Background(), pool); !errors.Is(err, errcode.JobRefreshViewInvalid) || !strings.Contains(err.Error(), tc.fault) {
			t.Errorf("%s: Verify answered %v; want %q", view, err, tc.fault)
		}
		w, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Start(context.Background()); !errors.Is(err, errcode.JobRefreshViewInvalid) {
			_ = w.Shutdown(context.Background())
			t.Errorf("%s: Start answered %v", view, err)
		}
		d, _ := fixtures.Run(t, pool, views.RefreshJob(), views.Target{View: pg.MustParseRelation(view), Concurrently: tc.concurrently})
		if d.State != "dead" || d.Attempt != 1 || d.LastError == nil || d.LastError.Code != string(errcode.JobRefreshViewInvalid) {
			t.Errorf("%s: the stock job's run %s after %d attempts: %v", view, d.State, d.Attempt, d.LastError)
		}
	}
	reg, _ := pipeline.NewRegistry(refresh("refresh-ok", "public.post_totals", true), refresh("refresh-ok-plain", "no_index", false))
	if err := reg.Verify(context.Background(), pool); err != nil {
		t.Fatalf("good declarations: %v", err)
	}
}

// Killed after its one step, a refresh ends as the clean run did.
func TestRefreshCrashProof(t *testing.T) {
	pool := setup(t, totalsDDL)
	fixtures.MustCrashProof(t, pool, refresh("refresh-crash", "post_totals", true), views.Request{}, fixtures.CrashProofOptions{
		Effects: func(ctx context.Context) (any, error) { return total(t, pool), nil },
	})
}
