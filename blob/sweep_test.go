package blob_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/blob/blobtest"
)

// A killed write's temporary file is swept from under the prefix; the
// objects, a temporary-looking name that is not one, and other prefixes
// stay.
func TestSweepTemporaryRemovesOnlyLeftoverTemporaryFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	b := open(t, dir)
	defer b.Close()
	blobtest.Put(t, b, "run/part-00001.csv", []byte("a"))
	blobtest.Put(t, b, "other/part-00001.csv", []byte("a"))
	for _, name := range []string{"run/part-00002.csv.17f1c2a3b4c5d6e7.tmp", "other/part-00002.csv.17f1c2a3b4c5d6e7.tmp", "run/notes.tmp"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		blobtest.RequireNoError(t, os.WriteFile(p, []byte("half"), 0o644))
	}
	n, err := b.SweepTemporary(context.Background(), "run/")
	blobtest.RequireNoError(t, err)
	if n != 1 {
		t.Fatalf("swept %d files, want 1", n)
	}
	requireFiles(t, filepath.Join(dir, "run"), "notes.tmp", "part-00001.csv")
	requireFiles(t, filepath.Join(dir, "other"), "part-00001.csv", "part-00002.csv.17f1c2a3b4c5d6e7.tmp")
}

// Stores that write no temporary object have nothing to sweep.
func TestSweepTemporaryElsewhereDoesNothing(t *testing.T) {
	t.Parallel()
	b, err := blob.Open(context.Background(), "mem://sweep-"+t.Name())
	blobtest.RequireNoError(t, err)
	defer b.Close()
	blobtest.Put(t, b, "run/part-00001.csv", []byte("a"))
	if n, err := b.SweepTemporary(context.Background(), "run/"); err != nil || n != 0 {
		t.Fatalf("%d %v", n, err)
	}
}
