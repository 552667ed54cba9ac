package pipecli_test

import (
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/cmd/pipe/pipecli"
	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/fixtures"
)

// replicaSetup answers a bundle on the replicated pair's primary holding
// people 1..300, replayed, with replay then paused and person 301 written
// on the primary alone; and the database's URL on the standby.
func replicaSetup(t *testing.T) (*bundle, string) {
	t.Helper()
	pair := fixtures.Replicated(t)
	db := pair.DBs(t)
	pool, err := pgxpool.New(t.Context(), db.Primary)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	b := &bundle{url: db.Primary, pool: pool}
	b.exec(t, `create table people(id int primary key, name text); insert into people select g, 'p' || g from generate_series(1, 300) g`)
	pair.WaitReplay(t)
	pair.PauseReplay(t)
	b.exec(t, `insert into people values (301, 'late')`)
	return b, db.Standby
}

// pipe export --replica-url reads the standby: with its replay paused, the
// row written on the primary after the pause is not exported; without the
// flag it is.
func TestExportReadsTheReplicaURL(t *testing.T) {
	b, standby := replicaSetup(t)
	if res := exportWaiting(t, b, "people", "--to", t.TempDir(), "--page-rows", "100", "--replica-url", standby); res.Rows != 300 {
		t.Fatalf("the replica's export holds %d rows, want the 300 replayed", res.Rows)
	}
	if res := exportWaiting(t, b, "people", "--to", t.TempDir(), "--page-rows", "100"); res.Rows != 301 {
		t.Fatalf("the primary's export holds %d rows, want 301", res.Rows)
	}
}

// A worker started with --replica-url reads the exports it runs on the
// standby.
func TestAWorkerReadsExportsOnItsReplicaURL(t *testing.T) {
	b, standby := replicaSetup(t)
	r := b.pipe(t, "export", "people", "--to", t.TempDir(), "--json")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	id := decode[struct {
		ID      string `json:"id"`
		RunID   string `json:"runId"`
		Deduped bool   `json:"deduped"`
	}](t, r.stdout).ID
	w := b.start(t, pipecli.Options{}, "worker", "--replica-url", standby)
	d := fixtures.AwaitSettled(t, b.pool, id)
	w.wait()
	res := decode[exportrows.Result](t, string(d.Result))
	if d.State != "done" || res.Rows != 300 {
		t.Fatalf("the worker's export is %s with %d rows, want done with the 300 replayed", d.State, res.Rows)
	}
}

// --replica-url without --wait is refused (a worker runs the export, and
// reads where its own flag says), and a URL that does not parse is refused
// without quoting it.
func TestReplicaURLRefusals(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, `create table people(id int primary key)`)
	for _, args := range [][]string{
		{"export", "people", "--to", t.TempDir(), "--replica-url", b.url},
		{"subject", "export", "--config", "x.json", "--id", "1", "--to", t.TempDir(), "--replica-url", b.url},
	} {
		r := b.pipe(t, args...)
		wantError(t, r, 1, "X_CONFIG_INVALID")
		if !strings.Contains(r.stderr, "--wait") {
			t.Errorf("%s: the refusal does not say to add --wait:\n%s", args[0], r.stderr)
		}
	}
	secret := "postgres://u:hunter2@[bad"
	r := b.pipe(t, "export", "people", "--to", t.TempDir(), "--wait", "--replica-url", secret)
	wantError(t, r, 1, "X_CONFIG_INVALID")
	if strings.Contains(r.stderr, "hunter2") {
		t.Fatalf("the refusal quotes the URL:\n%s", r.stderr)
	}
}
