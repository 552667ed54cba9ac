package pgserver

import (
	"os"
	"os/user"
	"path/filepath"
	"testing"

	"github.com/pipekit/pipe/errcode"
)

// fakeBin makes executable initdb and pg_ctl files in dir.
func fakeBin(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"initdb", "pg_ctl"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

func TestMissingBinariesArePostgresUnavailable(t *testing.T) {
	t.Parallel()
	empty := t.TempDir()
	_, err := start(t.Context(), Options{Dir: filepath.Join(empty, "pg")}, finder{path: empty, libRoot: empty}, user.Lookup)
	if got := errcode.CodeOf(err); got != errcode.PostgresUnavailable {
		t.Fatalf("code = %q (%v)", got, err)
	}
	e, _ := errcode.As(err)
	if e.Fix == "" {
		t.Fatal("no fix")
	}
	if _, statErr := os.Stat(filepath.Join(empty, "pg")); statErr == nil {
		t.Fatal("data directory created although PostgreSQL is missing")
	}
}

func TestFindPrefersPath(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	onPath := filepath.Join(root, "bin")
	fakeBin(t, onPath)
	fakeBin(t, filepath.Join(root, "lib", "16", "bin"))
	b, err := finder{path: "/nonexistent" + string(filepath.ListSeparator) + onPath, libRoot: filepath.Join(root, "lib")}.find()
	if err != nil {
		t.Fatal(err)
	}
	if b.initdb != filepath.Join(onPath, "initdb") || b.pgCtl != filepath.Join(onPath, "pg_ctl") {
		t.Fatalf("found %+v", b)
	}
}

func TestFindTakesNewestLibVersion(t *testing.T) {
	t.Parallel()
	lib := t.TempDir()
	for _, v := range []string{"9.6", "10", "16"} {
		fakeBin(t, filepath.Join(lib, v, "bin"))
	}
	// 17 lacks pg_ctl and "x" is no version: both are passed over.
	if err := os.MkdirAll(filepath.Join(lib, "17", "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	fakeBin(t, filepath.Join(lib, "x", "bin"))
	b, err := finder{libRoot: lib}.find()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(lib, "16", "bin", "pg_ctl"); b.pgCtl != want {
		t.Fatalf("pg_ctl = %s, want %s", b.pgCtl, want)
	}
}

func TestRootWithoutPostgresUserIsPostgresUnavailable(t *testing.T) {
	t.Parallel()
	noUser := func(name string) (*user.User, error) { return nil, user.UnknownUserError(name) }
	_, err := runAccount(0, noUser)
	if got := errcode.CodeOf(err); got != errcode.PostgresUnavailable {
		t.Fatalf("code = %q (%v)", got, err)
	}
	if acct, err := runAccount(1000, noUser); acct != nil || err != nil {
		t.Fatalf("ordinary user: %v, %v", acct, err)
	}
}
