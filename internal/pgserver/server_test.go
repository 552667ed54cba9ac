package pgserver

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
)

// dataDir answers a fresh data directory path the postgres OS user can reach
// when the test runs as root (t.TempDir makes its top directory 0700).
func dataDir(t *testing.T) string {
	t.Helper()
	tmp := t.TempDir()
	if os.Geteuid() == 0 {
		for p := tmp; p != os.TempDir() && p != filepath.Dir(p); p = filepath.Dir(p) {
			if err := os.Chmod(p, 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	return filepath.Join(tmp, "pg")
}

// startTest starts a server in dir and stops it when the test ends.
func startTest(t *testing.T, dir string) *Server {
	t.Helper()
	srv, err := Start(t.Context(), Options{Dir: dir, NoSync: true, Logf: t.Logf})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { _ = srv.Stop(context.Background()) })
	return srv
}

func connect(t *testing.T, url string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn
}

func query(t *testing.T, url, sql string) int {
	t.Helper()
	var n int
	if err := connect(t, url).QueryRow(t.Context(), sql).Scan(&n); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return n
}

func TestStartServesQueries(t *testing.T) {
	t.Parallel()
	srv := startTest(t, dataDir(t))
	if !srv.Started() {
		t.Fatal("Started() = false for a fresh cluster")
	}
	if got := query(t, srv.URL(), "select 1"); got != 1 {
		t.Fatalf("select 1 = %d", got)
	}
	if err := srv.Stop(t.Context()); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if _, err := pgx.Connect(t.Context(), srv.URL()); err == nil {
		t.Fatal("server still answers after Stop")
	}
}

func TestStartAgainKeepsData(t *testing.T) {
	t.Parallel()
	dir := dataDir(t)
	first := startTest(t, dir)
	if _, err := connect(t, first.URL()).Exec(t.Context(), "create table kept (n int)"); err != nil {
		t.Fatal(err)
	}
	if err := first.Stop(t.Context()); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	second := startTest(t, dir)
	if !second.Started() {
		t.Fatal("Started() = false after a stop")
	}
	if got := query(t, second.URL(), "select count(*) from pg_tables where tablename = 'kept'"); got != 1 {
		t.Fatal("table made before the restart is gone")
	}
}

func TestStartWhileRunningReuses(t *testing.T) {
	t.Parallel()
	dir := dataDir(t)
	servers := make([]*Server, 3)
	var wg sync.WaitGroup
	for i := range servers {
		wg.Go(func() {
			srv, err := Start(t.Context(), Options{Dir: dir, NoSync: true})
			if err != nil {
				t.Errorf("Start %d: %v", i, err)
				return
			}
			servers[i] = srv
		})
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	t.Cleanup(func() { _ = servers[0].Stop(context.Background()) })
	started := 0
	for _, s := range servers {
		if s.URL() != servers[0].URL() {
			t.Fatalf("two servers for one directory: %s and %s", s.URL(), servers[0].URL())
		}
		if s.Started() {
			started++
		}
	}
	if started != 1 {
		t.Fatalf("%d of %d concurrent starts launched a server, want 1", started, len(servers))
	}
	if got := query(t, servers[2].URL(), "select 1"); got != 1 {
		t.Fatalf("select 1 = %d", got)
	}
}

func TestStartWithoutDirIsConfigInvalid(t *testing.T) {
	t.Parallel()
	_, err := Start(t.Context(), Options{})
	if got := errcode.CodeOf(err); got != errcode.ConfigInvalid {
		t.Fatalf("code = %q (%v)", got, err)
	}
}
