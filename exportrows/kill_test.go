package exportrows_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// TestMain doubles as the kill test's worker process: re-executed with
// fixtures.StartChild, the test binary works exports until SIGKILLed.
func TestMain(m *testing.M) {
	fixtures.ChildMain(map[string]fixtures.ChildFunc{"export": func(ctx context.Context, pool *pgxpool.Pool) error {
		return fixtures.WorkUntilKilled(ctx, pool, exportrows.MustNew(exportKey, options()))
	}, "export-table": func(ctx context.Context, pool *pgxpool.Pool) error {
		return fixtures.WorkUntilKilled(ctx, pool, exportrows.TableJob())
	}})
	os.Exit(m.Run())
}

// A worker killed mid-export (SIGKILL, whatever it was doing) leaves a run
// that another worker finishes: every row once, in key order, every part
// matching the manifest, no stray object.
func TestSIGKILLMidExportResumes(t *testing.T) {
	ctx := context.Background()
	url := fixtures.DBURL(t)
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if _, err := pool.Exec(ctx, `create table big(id int primary key, note text);
		insert into big select i, repeat('x', 100) from generate_series(1, 40000) i`); err != nil {
		t.Fatal(err)
	}
	b := &bundle{pool: pool, bucket: "file://" + t.TempDir()}
	in := b.in(t, "big")
	in.PageRows = 500
	job := exportrows.MustNew(exportKey, options())
	res, err := job.Enqueue(ctx, pool, in)
	if err != nil {
		t.Fatal(err)
	}
	child := fixtures.StartChild(t, url, "export")
	awaitPages(t, pool, res.ID, 5)
	child.Kill(t)
	startWorker(t, pool, job)
	d := awaitSettled(t, pool, res.ID)
	if d.State != "done" || d.Attempt < 2 {
		t.Fatalf("%s on attempt %d: %s; want done after the killed attempt", d.State, d.Attempt, lastError(d))
	}
	var out exportrows.Result
	if err := json.Unmarshal(d.Result, &out); err != nil {
		t.Fatal(err)
	}
	bk, m := manifestOf(t, out)
	next := 1
	for _, p := range m.Parts {
		recs, err := csv.NewReader(bytes.NewReader(decoded(t, bk, p.Key))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs[1:] {
			if r[0] != strconv.Itoa(next) {
				t.Fatalf("part %s: row %s where %d was due", p.Key, r[0], next)
			}
			next++
		}
	}
	if next != 40001 || len(m.Parts) != 80 {
		t.Fatalf("%d rows in %d parts", next-1, len(m.Parts))
	}
}

// awaitPages waits until the run has committed n page steps.
func awaitPages(t *testing.T, pool *pgxpool.Pool, id string, n int) {
	t.Helper()
	admin := pipeline.NewAdmin(pool)
	deadline := time.Now().Add(60 * time.Second)
	for {
		d, err := admin.Show(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		pages := 0
		for _, s := range d.Steps {
			if strings.HasPrefix(s.Name, "page-") {
				pages++
			}
		}
		if pages >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d pages after 60s (the run %s: %s)", pages, d.State, lastError(d))
		}
		time.Sleep(2 * time.Millisecond)
	}
}
