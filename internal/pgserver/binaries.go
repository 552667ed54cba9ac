package pgserver

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/pipekit/pipe/errcode"
)

// binaries are the two PostgreSQL programs a cluster is driven with.
type binaries struct {
	initdb string
	pgCtl  string
}

// finder says where to look for the binaries: the directories of a
// PATH-style list first, then the newest version directory under libRoot
// (Debian and Ubuntu install them as /usr/lib/postgresql/<version>/bin).
type finder struct {
	path    string
	libRoot string
}

const installFix = "install the PostgreSQL server (apt-get install postgresql, or brew install postgresql@16), " +
	"or pass --database-url / set DATABASE_URL to use a server you already run"

func systemFinder() finder {
	return finder{path: os.Getenv("PATH"), libRoot: "/usr/lib/postgresql"}
}

// find answers the binaries, or a PostgresUnavailable error saying how to
// install them.
func (f finder) find() (binaries, error) {
	if b, ok := f.onPath(); ok {
		return b, nil
	}
	if b, ok := f.newestLib(); ok {
		return b, nil
	}
	return binaries{}, errcode.New(errcode.PostgresUnavailable, "no PostgreSQL server programs (initdb, pg_ctl) found").
		WithFix(installFix)
}

func (f finder) onPath() (binaries, bool) {
	initdb, okInit := lookPath(f.path, "initdb")
	pgCtl, okCtl := lookPath(f.path, "pg_ctl")
	return binaries{initdb: initdb, pgCtl: pgCtl}, okInit && okCtl
}

// newestLib answers the binaries of the highest version under libRoot that
// has both programs.
func (f finder) newestLib() (binaries, bool) {
	entries, err := os.ReadDir(f.libRoot)
	if err != nil {
		return binaries{}, false
	}
	type candidate struct {
		name    string
		version []int
	}
	var found []candidate
	for _, e := range entries {
		if v, ok := parseVersion(e.Name()); ok {
			found = append(found, candidate{e.Name(), v})
		}
	}
	slices.SortFunc(found, func(a, b candidate) int { return slices.Compare(b.version, a.version) })
	for _, c := range found {
		if b, ok := (finder{path: filepath.Join(f.libRoot, c.name, "bin")}).onPath(); ok {
			return b, true
		}
	}
	return binaries{}, false
}

// parseVersion reads "15" or "9.6" as numbers, so that 10 sorts above 9.6.
func parseVersion(s string) ([]int, bool) {
	var v []int
	for _, part := range strings.Split(s, ".") {
		n, err := strconv.Atoi(part)
		if err != nil || n < 0 {
			return nil, false
		}
		v = append(v, n)
	}
	return v, true
}

// lookPath is exec.LookPath over an explicit list. Empty entries are skipped
// rather than read as the working directory.
func lookPath(list, name string) (string, bool) {
	for _, dir := range filepath.SplitList(list) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p, true
		}
	}
	return "", false
}
