package blob_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/blob/blobtest"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/internal/diskfault"
)

// A file bucket on a full disk (a real 64 KiB tmpfs) fails with
// X_DISK_FULL, retried after a pause, whether the disk fills in the
// writer's Write or at its Close; nothing is left behind.
func TestFileDiskFullIsRetryAfter(t *testing.T) {
	dir := diskfault.Small(t, 64<<10)
	b := open(t, dir)
	defer b.Close()
	big := bytes.Repeat([]byte("x"), 1<<20)
	var fromWrite error
	err := b.Write(context.Background(), "out.csv", blob.WriteOptions{}, func(w io.Writer) error {
		_, fromWrite = w.Write(big)
		return fromWrite
	})
	for _, e := range []error{fromWrite, err} {
		blobtest.RequireCode(t, e, errcode.DiskFull)
		if errcode.Classify(e) != errcode.RetryAfter || !errors.Is(e, syscall.ENOSPC) {
			t.Fatalf("error %v: class %s, want retry-after wrapping ENOSPC", e, errcode.Classify(e))
		}
		if s, ok := errcode.RetryAfterSeconds(e); !ok || s <= 0 {
			t.Fatalf("error %v carries no retry-after", e)
		}
	}
	err = b.WriteBytes(context.Background(), "other.csv", big, blob.WriteOptions{})
	blobtest.RequireCode(t, err, errcode.DiskFull)
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Fatalf("a failed write left %d files behind", len(left))
	}
}

// A read-only directory (a read-only tmpfs as root, mode 0555 otherwise)
// refuses a write with X_BLOB_PERMISSION_DENIED, terminal — not
// X_BLOB_UNAVAILABLE, retried as if the network failed — and refuses a
// bucket beneath it the same way.
func TestFileReadOnlyIsPermissionDenied(t *testing.T) {
	dir := diskfault.ReadOnly(t)
	b := open(t, dir)
	defer b.Close()
	err := b.WriteBytes(context.Background(), "out.csv", []byte("a,b\n"), blob.WriteOptions{})
	blobtest.RequireCode(t, err, errcode.BlobPermissionDenied)
	if errcode.Classify(err) != errcode.Terminal {
		t.Fatalf("class = %s, want terminal", errcode.Classify(err))
	}
	if !errors.Is(err, syscall.EROFS) && !errors.Is(err, syscall.EACCES) {
		t.Fatalf("error %v wraps neither EROFS nor EACCES", err)
	}
	_, err = blob.Open(context.Background(), filepath.Join(dir, "below"))
	blobtest.RequireCode(t, err, errcode.BlobPermissionDenied)
}
