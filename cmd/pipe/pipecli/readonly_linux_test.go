//go:build linux

package pipecli_test

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// fsImmutable is FS_IMMUTABLE_FL: no entry can be made in the directory,
// by root either.
const fsImmutable = 0x10

// readOnlyDir answers a new directory nothing can be written in.
func readOnlyDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	lockDir(t, dir)
	return dir
}

// lockDir makes dir one nothing can be written in: mode 0555, and, for
// root (whom modes do not stop), the immutable flag, until the test ends.
func lockDir(t *testing.T, dir string) {
	t.Helper()
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(dir, 0o755) })
	if unix.Access(dir, unix.W_OK) == nil {
		setImmutable(t, dir, true)
		t.Cleanup(func() { setImmutable(t, dir, false) })
	}
	if f, err := os.Create(filepath.Join(dir, "probe")); err == nil {
		f.Close()
		t.Fatalf("%s is still writable", dir)
	}
}

func setImmutable(t *testing.T, dir string, on bool) {
	f, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	flags, err := unix.IoctlGetUint32(int(f.Fd()), unix.FS_IOC_GETFLAGS)
	if err != nil {
		t.Fatal(err)
	}
	if on {
		flags |= fsImmutable
	} else {
		flags &^= fsImmutable
	}
	if err := unix.IoctlSetPointerInt(int(f.Fd()), unix.FS_IOC_SETFLAGS, int(flags)); err != nil {
		t.Fatal(err)
	}
}
