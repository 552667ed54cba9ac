package pgserver

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
)

// startSmall starts a server with a setting of its own and stops it when
// the test ends.
func startSmall(t *testing.T) *Server {
	t.Helper()
	srv, err := Start(t.Context(), Options{Dir: dataDir(t), NoSync: true, Settings: []string{"shared_buffers=16MB"}, Logf: t.Logf})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { _ = srv.Stop(context.Background()) })
	return srv
}

func showSharedBuffers(t *testing.T, url string) string {
	t.Helper()
	var v string
	if err := connect(t, url).QueryRow(t.Context(), "show shared_buffers").Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// A restart ends the open connections with an unavailable error and
// serves new ones on the same port, with the same settings.
func TestRestartEndsConnectionsAndKeepsPortAndSettings(t *testing.T) {
	t.Parallel()
	srv := startSmall(t)
	url := srv.URL()
	open := connect(t, url)
	if _, err := open.Exec(t.Context(), "create table kept (n int)"); err != nil {
		t.Fatal(err)
	}
	if err := srv.Restart(t.Context()); err != nil {
		t.Fatalf("Restart: %v", err)
	}
	if srv.URL() != url {
		t.Fatalf("URL %s after the restart, was %s", srv.URL(), url)
	}
	_, err := open.Exec(t.Context(), "select 1")
	if !errcode.Unavailable(errcode.Postgres(t.Context(), err, "select")) {
		t.Fatalf("a connection open across the restart answered %v, want an unavailable error", err)
	}
	if got := query(t, url, "select count(*) from pg_tables where tablename = 'kept'"); got != 1 {
		t.Fatal("table made before the restart is gone")
	}
	if got := showSharedBuffers(t, url); got != "16MB" {
		t.Fatalf("shared_buffers = %s after the restart, want 16MB", got)
	}
}

// Resume starts a stopped server on the port it had.
func TestResumeAfterStopKeepsPort(t *testing.T) {
	t.Parallel()
	srv := startSmall(t)
	url := srv.URL()
	if err := srv.Stop(t.Context()); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if _, err := pgx.Connect(t.Context(), url); err == nil {
		t.Fatal("server answers while stopped")
	}
	if err := srv.Resume(t.Context()); err != nil {
		t.Fatalf("Resume: %v", err)
	}
	if got := query(t, url, "select 1"); got != 1 {
		t.Fatalf("select 1 = %d", got)
	}
	if got := showSharedBuffers(t, url); got != "16MB" {
		t.Fatalf("shared_buffers = %s after Resume, want 16MB", got)
	}
	if err := srv.Resume(t.Context()); err != nil {
		t.Fatalf("Resume of a running server: %v", err)
	}
}
