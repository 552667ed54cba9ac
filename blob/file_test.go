package blob_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/blob/blobtest"
	"github.com/pipekit/pipe/errcode"
)

// TestFileWriteIsAtomic watches a file bucket mid-write: the bytes go to a
// temporary file beside the object, which appears only by the final rename.
func TestFileWriteIsAtomic(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	b := open(t, dir)
	defer b.Close()
	blobtest.Put(t, b, "d/f.csv", []byte("old"))
	written, release := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- b.Write(context.Background(), "d/f.csv", blob.WriteOptions{}, func(w io.Writer) error {
			// Past the 512 bytes gocloud.dev buffers to sniff a content type,
			// so the driver's writer is open.
			_, err := w.Write([]byte(strings.Repeat("new", 400)))
			close(written)
			<-release
			return err
		})
	}()
	<-written
	entries, err := os.ReadDir(filepath.Join(dir, "d"))
	blobtest.RequireNoError(t, err)
	if len(entries) != 2 || !strings.HasSuffix(entries[1].Name(), ".tmp") {
		t.Fatalf("mid-write the directory holds %v, want the object and a temporary file", entries)
	}
	blobtest.RequireContent(t, b, "d/f.csv", []byte("old"))
	requireKeys(t, b, "d/f.csv") // List hides the temporary file
	close(release)
	blobtest.RequireNoError(t, <-done)
	blobtest.RequireContent(t, b, "d/f.csv", []byte(strings.Repeat("new", 400)))
	requireFiles(t, filepath.Join(dir, "d"), "f.csv")
}

// TestFileHostileKeysTouchNothing checks that refused keys reach no file:
// the bucket's directory and its parent stay as they were.
func TestFileHostileKeysTouchNothing(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	root := filepath.Join(parent, "root")
	b := open(t, root)
	defer b.Close()
	for _, key := range blobtest.HostileKeys() {
		blobtest.RequireCode(t, b.WriteBytes(context.Background(), key, []byte("x"), blob.WriteOptions{}), errcode.BlobKeyInvalid)
		blobtest.RequireCode(t, b.Delete(context.Background(), key), errcode.BlobKeyInvalid)
	}
	requireFiles(t, parent, "root")
	requireFiles(t, root)
}

func TestFileReservedKeys(t *testing.T) {
	t.Parallel()
	reserved := []string{"x.attrs", "d/x.csv.0123456789abcdef.tmp"}
	file := open(t, t.TempDir())
	defer file.Close()
	mem := open(t, "mem://reserved-keys")
	defer mem.Close()
	for _, key := range reserved {
		blobtest.RequireCode(t, file.WriteBytes(context.Background(), key, nil, blob.WriteOptions{}), errcode.BlobKeyInvalid)
		blobtest.Put(t, mem, key, nil)
	}
	blobtest.Put(t, file, "x.tmp", nil)
	blobtest.Put(t, file, "x.attrs.csv", nil)
}

// TestFileWritesNoSidecars checks that only the user's object lands in the
// directory.
func TestFileWritesNoSidecars(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	b := open(t, "file://"+dir)
	defer b.Close()
	blobtest.RequireNoError(t, b.WriteBytes(context.Background(), "f.csv", []byte("a"), blob.WriteOptions{ContentType: "text/csv"}))
	requireFiles(t, dir, "f.csv")
}

func requireFiles(t *testing.T, dir string, want ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	blobtest.RequireNoError(t, err)
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("%s holds %q, want %q", dir, got, want)
	}
}

func requireKeys(t *testing.T, b *blob.Bucket, want ...string) {
	t.Helper()
	objs, err := b.List(context.Background(), "")
	blobtest.RequireNoError(t, err)
	var got []string
	for _, o := range objs {
		got = append(got, o.Key)
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("List = %q, want %q", got, want)
	}
}
