package importrows_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/importrows"
	"github.com/pipekit/pipe/pipeline"
)

// TestMain doubles as the kill test's worker process: re-executed with
// fixtures.StartChild, the test binary works imports until SIGKILLed.
func TestMain(m *testing.M) {
	fixtures.ChildMain(map[string]fixtures.ChildFunc{"import": func(ctx context.Context, pool *pgxpool.Pool) error {
		return fixtures.WorkUntilKilled(ctx, pool, killJob("killed"))
	}, "ranges": func(ctx context.Context, pool *pgxpool.Pool) error {
		return fixtures.WorkUntilKilled(ctx, pool, killRanges().All()...)
	}})
	os.Exit(m.Run())
}

// killJob imports into a table with no key: plain inserts, where a page
// written twice would show as duplicate rows.
func killJob(table string) *pipeline.Job[fileIn, importrows.Result] {
	o := tableOptions(table)
	o.Name = "kill." + table
	o.PageBytes = 64 << 10
	return importrows.MustNew(fileKey, o)
}

func TestSIGKILLMidImportResumesExactlyOnce(t *testing.T) {
	ctx := context.Background()
	url := fixtures.DBURL(t)
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	ddl := `create table killed(id uuid, org_id uuid, total bigint, note text, created_at timestamptz);
		create table clean(like killed)`
	if _, err := pool.Exec(ctx, ddl); err != nil {
		t.Fatal(err)
	}
	b := &bundle{pool: pool, dir: t.TempDir()}
	in := b.put(t, "orders.csv", ordersCSV(60000))
	job := killJob("killed")
	res, err := job.Enqueue(ctx, pool, in)
	if err != nil {
		t.Fatal(err)
	}

	child := fixtures.StartChild(t, url, "import")
	awaitPages(t, pool, res.ID, 5)
	child.Kill(t)
	killedAt := count(t, b, `select count(*) from killed`)

	startWorker(t, pool, job, killJob("clean"))
	d := awaitSettled(t, pool, res.ID)
	if d.State != "done" || d.Attempt < 2 {
		t.Fatalf("%s on attempt %d %+v: want done after the killed attempt", d.State, d.Attempt, d.LastError)
	}
	if killedAt == 0 || killedAt >= 60000 {
		t.Fatalf("%d rows when the worker was killed: the kill must land mid-import", killedAt)
	}
	cleanRun, _ := run(t, pool, killJob("clean"), fileIn{Bucket: in.Bucket, Key: in.Key, Run: "clean"})
	if cleanRun.State != "done" {
		t.Fatalf("clean import %s", cleanRun.State)
	}
	diff := count(t, b, `select count(*) from (
		(select * from killed except all select * from clean) union all
		(select * from clean except all select * from killed)) d`)
	if diff != 0 || count(t, b, `select count(*) from killed`) != 60000 {
		t.Fatalf("the resumed import differs from a clean one in %d rows", diff)
	}
	for _, s := range d.Steps {
		if s.Executions != 1 {
			t.Errorf("step %s committed %d times", s.Name, s.Executions)
		}
	}
}

// awaitPages waits until the run has committed n page steps.
func awaitPages(t *testing.T, pool *pgxpool.Pool, id string, n int) {
	t.Helper()
	admin := pipeline.NewAdmin(pool)
	deadline := time.Now().Add(30 * time.Second)
	for {
		d, err := admin.Show(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		pages := 0
		for _, s := range d.Steps {
			if ok, _ := filepath.Match("page-*", s.Name); ok {
				pages++
			}
		}
		if pages >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d pages after 30s", pages)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
