package exportrows

import (
	"io"
	"os"
	"testing"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/internal/diskfault"
)

// A spill buffer is a file already unlinked from its directory; a buffer
// put back comes out again empty and rewound; close closes them all.
func TestSpillPoolReusesUnlinkedFiles(t *testing.T) {
	dir := t.TempDir()
	p := newSpillPool(dir)
	b := p.GetBuffer()
	if _, err := b.Write([]byte("pages of a row group")); err != nil {
		t.Fatal(err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Fatalf("the spill file is still linked: %d entries", len(left))
	}
	if _, err := b.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(b)
	if err != nil || string(got) != "pages of a row group" {
		t.Fatalf("read back %q, %v", got, err)
	}
	p.PutBuffer(b)
	again := p.GetBuffer()
	if again != b {
		t.Fatal("a put-back buffer was not reused")
	}
	if rest, _ := io.ReadAll(again); len(rest) != 0 {
		t.Fatalf("a reused buffer holds %d old bytes", len(rest))
	}
	p.close()
	if _, err := again.Write([]byte("x")); err == nil {
		t.Fatal("a buffer still writes after the pool closed")
	}
}

// A directory the pool cannot write in fails the writer's first write,
// with the cause.
func TestSpillPoolReportsAFileItCannotMake(t *testing.T) {
	p := newSpillPool(t.TempDir() + "/missing")
	if _, err := p.GetBuffer().Write([]byte("x")); err == nil {
		t.Fatal("a write to an unmade buffer succeeded")
	}
}

// A spill file on a full disk (a real 64 KiB tmpfs) fails its write with
// X_DISK_FULL, retried after a pause; a read-only temporary directory
// refuses its first write with X_TEMP_DIR_UNWRITABLE, terminal.
func TestSpillPoolCodesDiskFailures(t *testing.T) {
	full := newSpillPool(diskfault.Small(t, 64<<10))
	defer full.close()
	_, err := full.GetBuffer().Write(make([]byte, 1<<20))
	if errcode.CodeOf(err) != errcode.DiskFull || errcode.Classify(err) != errcode.RetryAfter {
		t.Fatalf("full disk: %v (%s), want X_DISK_FULL, retry-after", err, errcode.Classify(err))
	}
	ro := newSpillPool(diskfault.ReadOnly(t))
	defer ro.close()
	_, err = ro.GetBuffer().Write([]byte("x"))
	if errcode.CodeOf(err) != errcode.TempDirUnwritable || errcode.Classify(err) != errcode.Terminal {
		t.Fatalf("read-only: %v (%s), want X_TEMP_DIR_UNWRITABLE, terminal", err, errcode.Classify(err))
	}
}
