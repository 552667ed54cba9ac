package pgserver

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pipekit/pipe/errcode"
)

func TestCheckReachRefusesClosedParent(t *testing.T) {
	t.Parallel()
	stranger := &account{uid: 54321, gid: 54321}
	closed := filepath.Join(t.TempDir(), "closed")
	open := filepath.Join(t.TempDir(), "open")
	for dir, mode := range map[string]os.FileMode{closed: 0o700, open: 0o711} {
		if err := os.Mkdir(dir, mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(filepath.Dir(dir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(filepath.Dir(filepath.Dir(dir)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := stranger.checkReach(filepath.Join(closed, "pg")); errcode.CodeOf(err) != errcode.PostgresUnavailable {
		t.Fatalf("closed parent: %v", err)
	}
	if err := stranger.checkReach(filepath.Join(open, "pg")); err != nil {
		t.Fatalf("open parent: %v", err)
	}
	if err := (*account)(nil).checkReach(filepath.Join(closed, "pg")); err != nil {
		t.Fatalf("current user: %v", err)
	}
}
