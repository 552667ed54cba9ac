package exportrows_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// A worker killed while it writes a part leaves the part's temporary file
// (part-000NN.csv.<hex>.tmp) beside the parts; the resumed run sweeps it,
// so the completed export's directory holds its parts and its manifest
// only, and a part-* glob finds the parts the manifest names.
func TestSIGKILLMidWriteLeavesNoTemporaryFile(t *testing.T) {
	ctx := context.Background()
	url := fixtures.DBURL(t)
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if _, err := pool.Exec(ctx, `create table big(id int primary key, note text);
		insert into big select i, repeat('x', 100) from generate_series(1, 100000) i`); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	in := exportIn{Bucket: "file://" + root, Prefix: "exports", Table: "big", Run: t.Name(), PageRows: 2500}
	job := exportrows.MustNew(exportKey, options())
	res, err := job.Enqueue(ctx, pool, in)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "exports", res.RunID)
	killMidWrite(t, pool, url, res.ID, dir)
	startWorker(t, pool, job)
	d := awaitSettled(t, pool, res.ID)
	if d.State != "done" {
		t.Fatalf("%s: %s", d.State, lastError(d))
	}
	if tmp := temporaryFiles(t, dir); len(tmp) > 0 {
		t.Fatalf("the completed export's directory holds %v", tmp)
	}
	var out exportrows.Result
	if err := json.Unmarshal(d.Result, &out); err != nil {
		t.Fatal(err)
	}
	_, m := manifestOf(t, out) // every object in the directory is the manifest's
	glob, _ := filepath.Glob(filepath.Join(dir, "part-*"))
	if len(glob) != len(m.Parts) || len(m.Parts) != 40 {
		t.Fatalf("part-* finds %d files, the manifest names %d parts", len(glob), len(m.Parts))
	}
}

// killMidWrite starts a worker process and SIGKILLs it while a part's
// temporary file is in dir, until one is left there: a kill that lands
// between two writes is tried again with a fresh process.
func killMidWrite(t *testing.T, pool *pgxpool.Pool, url, id, dir string) {
	t.Helper()
	for range 10 {
		child := fixtures.StartChild(t, url, "export")
		awaitTemporaryFile(t, pool, id, dir)
		child.Kill(t)
		if len(temporaryFiles(t, dir)) > 0 {
			return
		}
	}
	t.Fatal("no kill of ten landed during a write")
}

// awaitTemporaryFile waits until a write is in flight in dir.
func awaitTemporaryFile(t *testing.T, pool *pgxpool.Pool, id, dir string) {
	t.Helper()
	admin := pipeline.NewAdmin(pool)
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		if len(temporaryFiles(t, dir)) > 0 {
			return
		}
		if d, err := admin.Show(context.Background(), id); err == nil && d.State == "done" {
			t.Fatal("the export finished before a write was caught in flight")
		}
	}
	t.Fatal("no write in flight after 2 minutes")
}

func temporaryFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			out = append(out, e.Name())
		}
	}
	return out
}
