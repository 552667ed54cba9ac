package pipecli_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/fixtures"
)

// pipe import --wait and pipe export --wait ride out a restart of
// PostgreSQL in the middle of their run, as the worker does: each exits 0,
// every row lands once, and the run ends done on its first attempt.
func TestWaitingCommandsRideOutARestart(t *testing.T) {
	srv := fixtures.RestartableServer(t)
	url := srv.DBURL(t)
	pool, err := pgxpool.New(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	const rows = 200_000
	if _, err := pool.Exec(t.Context(), `create table people(id int primary key, name text not null)`); err != nil {
		t.Fatal(err)
	}
	var csv strings.Builder
	csv.WriteString("id,name\n")
	for i := 1; i <= rows; i++ {
		fmt.Fprintf(&csv, "%d,person number %d\n", i, i)
	}
	path := filepath.Join(t.TempDir(), "people.csv")
	if err := os.WriteFile(path, []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	b := &bundle{url: url, pool: pool}

	imported := restartMidway(t, srv, pool, `select count(*) from people`, func() result {
		return b.pipe(t, "import", path, "--into", "people", "--key", "id", "--page-bytes", "65536", "--wait", "--json")
	})
	if imported.code != 0 {
		t.Fatalf("import exit %d\n%s", imported.code, imported.stderr)
	}
	dir := t.TempDir()
	exported := restartMidway(t, srv, pool, `select coalesce(max((progress->>'done')::bigint), 0) from pipe.jobs where name = 'pipe.export'`, func() result {
		return b.pipe(t, "export", "people", "--to", dir, "--page-rows", "2000", "--wait", "--json")
	})
	if exported.code != 0 {
		t.Fatalf("export exit %d\n%s", exported.code, exported.stderr)
	}
	var n, distinct, attempts int
	if err := queryThrough(pool, `select count(*), count(distinct id), (select max(attempt) from pipe.jobs) from people`, &n, &distinct, &attempts); err != nil {
		t.Fatal(err)
	}
	if n != rows || distinct != rows || attempts != 1 {
		t.Fatalf("%d rows, %d distinct, attempts up to %d; want %d once each, on the first attempt", n, distinct, attempts, rows)
	}
	var res exportrows.Result
	if err := json.Unmarshal([]byte(exported.stdout), &res); err != nil || res.Rows != rows {
		t.Fatalf("the export wrote %d rows (%v):\n%s", res.Rows, err, exported.stdout)
	}
}

// restartMidway runs command in the background, restarts the server once
// progress (an integer the query answers) is under way, and answers what
// the command printed.
func restartMidway(t *testing.T, srv *fixtures.Server, pool *pgxpool.Pool, progress string, command func() result) result {
	t.Helper()
	done := make(chan result, 1)
	go func() { done <- command() }()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		var n int64
		if err := queryThrough(pool, progress, &n); err == nil && n > 0 {
			break
		}
		select {
		case r := <-done:
			t.Fatalf("the command ended before the restart: exit %d\n%s", r.code, r.stderr)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("no progress in 2 minutes")
		}
		time.Sleep(5 * time.Millisecond)
	}
	srv.Restart(t)
	select {
	case r := <-done:
		return r
	case <-time.After(3 * time.Minute):
		t.Fatal("the command did not end 3 minutes after the restart")
		return result{}
	}
}

// queryThrough runs a query, trying again while the pool lends connections
// a restart ended.
func queryThrough(pool *pgxpool.Pool, sql string, dst ...any) error {
	var err error
	for range 5 {
		if err = pool.QueryRow(context.Background(), sql).Scan(dst...); err == nil {
			return nil
		}
	}
	return err
}
