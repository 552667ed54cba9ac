package importrows_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/importrows"
	"github.com/pipekit/pipe/pipeline"
)

// killRanges imports by two ranges into a table with no key: a page of a
// range written twice would show as duplicate rows.
func killRanges() importrows.Jobs[fileIn] {
	o := tableOptions("killed")
	o.Name, o.PageBytes, o.Parallel, o.RangeBytes = "kill.ranges", 64<<10, 2, 1<<20
	return must(importrows.NewJobs(fileKey, o))
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestSIGKILLOfAWorkerHoldingARangeResumesIt: the worker process running
// the ranges is SIGKILLed while a range is mid-way; a new worker resumes
// the range at its checkpoint and the parent finishes with the rows of a
// clean sequential import, each exactly once.
func TestSIGKILLOfAWorkerHoldingARangeResumesIt(t *testing.T) {
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
	jobs := killRanges()
	res, err := jobs.Import.Enqueue(ctx, pool, in)
	if err != nil {
		t.Fatal(err)
	}

	child := fixtures.StartChild(t, url, "ranges")
	ids := awaitRangeIDs(t, pool, res.ID)
	awaitPages(t, pool, ids[0], 3)
	child.Kill(t)
	killedAt := count(t, b, `select count(*) from killed`)

	startWorker(t, pool, jobs.All()...)
	d := awaitSettled(t, pool, res.ID)
	if d.State != "done" {
		t.Fatalf("%s %+v: want done after the kill", d.State, d.LastError)
	}
	if killedAt == 0 || killedAt >= 60000 {
		t.Fatalf("%d rows when the worker was killed: the kill must land mid-import", killedAt)
	}
	resumed := 0
	for _, id := range ids {
		r := awaitSettled(t, pool, id)
		if r.State != "done" {
			t.Fatalf("range %s %+v", r.State, r.LastError)
		}
		if r.Attempt >= 2 {
			resumed++
		}
		for _, s := range r.Steps {
			if s.Executions != 1 {
				t.Errorf("range step %s committed %d times", s.Name, s.Executions)
			}
		}
	}
	if resumed == 0 {
		t.Fatal("no range was resumed after the kill")
	}
	all, err := pipeline.NewAdmin(pool).List(ctx, pipeline.ListFilter{Name: "kill.ranges.range"})
	if err != nil || len(all.Jobs) != 2 {
		t.Fatalf("%d range runs (%v): the resumed parent enqueued again", len(all.Jobs), err)
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
}

// awaitRangeIDs waits for the parent's enqueue step and answers the range
// runs' ids.
func awaitRangeIDs(t *testing.T, pool *pgxpool.Pool, id string) []string {
	t.Helper()
	admin := pipeline.NewAdmin(pool)
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		d, err := admin.Show(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range d.Steps {
			var ids []string
			if s.Name == "ranges-enqueue" && json.Unmarshal(s.Output, &ids) == nil && len(ids) == 2 {
				return ids
			}
		}
		time.Sleep(2 * time.Millisecond)
	}
	t.Fatal("the parent enqueued no two ranges in 30s")
	return nil
}
