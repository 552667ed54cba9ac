package diskfault

import (
	"os"
	"strconv"
	"syscall"
	"testing"
)

// Small answers a directory on a new tmpfs of size bytes (rounded up to a
// page), so that writing more fails with ENOSPC. It skips the test where
// the mount is refused.
func Small(t testing.TB, size int64) string {
	t.Helper()
	return mount(t, 0, "size="+strconv.FormatInt(size, 10))
}

// ReadOnly answers a directory that refuses every write: a read-only tmpfs
// (EROFS) as root, or a directory of mode 0555 (EACCES) otherwise.
func ReadOnly(t testing.TB) string {
	t.Helper()
	if os.Geteuid() != 0 {
		dir := t.TempDir()
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatalf("make %s read-only: %v", dir, err)
		}
		t.Cleanup(func() { _ = os.Chmod(dir, 0o755) })
		return dir
	}
	return mount(t, syscall.MS_RDONLY, "size=64k")
}

func mount(t testing.TB, flags uintptr, data string) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", flags, data); err != nil {
		t.Skipf("cannot mount a tmpfs (needs root and CAP_SYS_ADMIN): %v", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, syscall.MNT_DETACH); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	return dir
}
