package exportrows_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/pipeline"
)

// A worker killed (SIGKILL) while it reads a parallel export's ranges
// leaves them to another worker, which resumes each at its checkpoint in
// the same snapshot, held by the parent on a worker of its own: every row
// once, in key order.
func TestSIGKILLMidRangeResumes(t *testing.T) {
	ctx := context.Background()
	url := fixtures.DBURL(t)
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if _, err := pool.Exec(ctx, `create table big(id int primary key, note text);
		insert into big select i, repeat('x', 100) from generate_series(1, 40000) i; analyze big`); err != nil {
		t.Fatal(err)
	}
	job := exportrows.TableJob()
	res, err := job.Enqueue(ctx, pool, exportrows.TableExport{From: pg.Relation{Name: "big"}, To: t.TempDir(), PageRows: 500, Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	startSlots(t, pool, 1, job) // the parent alone: the ranges go to the child process
	children := awaitChildren(t, pool, res.ID)
	child := fixtures.StartChild(t, url, "export-table")
	awaitPages(t, pool, children[0], 5)
	child.Kill(t)
	startWorker(t, pool, job)
	d := awaitSettled(t, pool, res.ID)
	if d.State != "done" {
		t.Fatalf("%s: %s", d.State, lastError(d))
	}
	first, err := pipeline.NewAdmin(pool).Show(ctx, children[0])
	if err != nil || first.Attempt < 2 {
		t.Fatalf("the killed range ran %d attempts (%v); want a resumed one", first.Attempt, err)
	}
	var out exportrows.Result
	if err := json.Unmarshal(d.Result, &out); err != nil {
		t.Fatal(err)
	}
	bk, m := manifestOf(t, out)
	next := 1
	for _, p := range m.Parts {
		data := decoded(t, bk, p.Key)
		_, body, _ := bytes.Cut(data, []byte("\n"))
		for _, line := range bytes.Split(bytes.TrimSuffix(body, []byte("\n")), []byte("\n")) {
			id, _, _ := bytes.Cut(line, []byte(","))
			if string(id) != strconv.Itoa(next) {
				t.Fatalf("part %s: row %s where %d was due", p.Key, id, next)
			}
			next++
		}
	}
	if next != 40001 || m.Ranges != 2 {
		t.Fatalf("%d rows in %d ranges", next-1, m.Ranges)
	}
}
