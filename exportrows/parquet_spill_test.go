package exportrows

import (
	"io"
	"os"
	"testing"
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
