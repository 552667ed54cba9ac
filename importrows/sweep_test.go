package importrows_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/pipekit/pipe/importrows"
)

// A report part left half-written by a killed attempt (a file bucket's
// temporary file) is swept when the next attempt starts: the run's report
// directory holds report parts only.
func TestImportSweepsAKilledAttemptsTemporaryFiles(t *testing.T) {
	b := setup(t, `create table n(k int primary key)`)
	in := b.put(t, "n.csv", []byte("k\n1\nx\n"))
	job := importrows.MustNew(fileKey, tableOptions("n"))
	res, err := job.Enqueue(context.Background(), b.pool, in)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(b.dir, "errors", res.RunID)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "errors-00000.ndjson.17f1c2a3b4c5d6e7.tmp"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	startWorker(t, b.pool, job)
	if d := awaitSettled(t, b.pool, res.ID); d.State != "done" {
		t.Fatalf("%s %+v", d.State, d.LastError)
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 1 || entries[0].Name() != "errors-00000.ndjson" {
		t.Fatalf("the report directory holds %v (%v), want its one part", entries, err)
	}
}
