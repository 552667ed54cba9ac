package exportrows_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/fixtures"
)

// replicaBundle is a test's database on the replicated pair: the bundle's
// pool on the primary, and a pool on the standby.
func replicaBundle(t *testing.T, pair *fixtures.Pair, ddl string) (*bundle, *pgxpool.Pool) {
	t.Helper()
	db := pair.DBs(t)
	primary, standby := openPool(t, db.Primary), openPool(t, db.Standby)
	if _, err := primary.Exec(context.Background(), ddl); err != nil {
		t.Fatal(err)
	}
	pair.WaitReplay(t)
	return &bundle{pool: primary, bucket: "file://" + t.TempDir()}, standby
}

func openPool(t *testing.T, u string) *pgxpool.Pool {
	t.Helper()
	pool, err := pgxpool.New(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// replicaOptions declare the test export reading from the standby, under
// a name of its own: a test's workers stay until it ends, and one working
// test.export would take the other declaration's runs.
func replicaOptions(standby *pgxpool.Pool) exportrows.Options[exportIn] {
	o := options()
	o.Name, o.Replica = "test.export.replica", standby
	return o
}

const replicaDDL = `create table items(id int primary key, name text, pad text);
	insert into items select i, 'item ' || i, repeat('z', 50) from generate_series(1, 2500) i;
	analyze items`

// An export reading its rows on the standby writes the same files as one
// reading them on the primary, in key order and in a snapshot, while its
// bookkeeping stays on the primary.
func TestAnExportFromTheReplicaEqualsOneFromThePrimary(t *testing.T) {
	b, standby := replicaBundle(t, fixtures.Replicated(t), replicaDDL)
	for _, order := range []exportrows.Order{exportrows.ByKey, exportrows.Snapshot} {
		in := b.in(t, "items")
		in.PageRows, in.Order, in.Run = 700, order, in.Run+"-"+string(order)
		onPrimary := b.export(t, options(), in)
		o := replicaOptions(standby)
		in.Run += "-replica"
		onReplica := b.export(t, o, in)
		got, want := partsText(t, onReplica), partsText(t, onPrimary)
		if len(want) < 4 || strings.Join(got, "|") != strings.Join(want, "|") {
			t.Fatalf("%s order: the replica's export (%d parts) differs from the primary's (%d parts)", order, len(got), len(want))
		}
	}
}

// With the standby's replay paused, a row written on the primary after the
// pause is in the primary's export and not in the replica's: a replica
// export reads the standby's replayed state.
func TestAReplicaExportReadsOnlyWhatTheStandbyReplayed(t *testing.T) {
	pair := fixtures.Replicated(t)
	b, standby := replicaBundle(t, pair, replicaDDL)
	pair.PauseReplay(t)
	if _, err := b.pool.Exec(context.Background(), `insert into items values (2501, 'late', '')`); err != nil {
		t.Fatal(err)
	}
	o := replicaOptions(standby)
	for _, order := range []exportrows.Order{exportrows.ByKey, exportrows.Snapshot} {
		in := b.in(t, "items")
		in.Columns, in.Order, in.PageRows, in.Run = []string{"id"}, order, 1000, in.Run+"-"+string(order)
		ids := firstColumn(t, b.export(t, o, in))
		if len(ids) != 2500 || slices.Contains(ids, 2501) {
			t.Fatalf("%s order: the replica's export holds %d rows (the late row: %v), want the 2,500 replayed", order, len(ids), slices.Contains(ids, 2501))
		}
		in.Run += "-primary"
		if ids := firstColumn(t, b.export(t, options(), in)); len(ids) != 2501 {
			t.Fatalf("%s order: the primary's export holds %d rows, want 2,501", order, len(ids))
		}
	}
}

// A read on the standby that recovery cancels (the primary vacuumed rows
// its snapshot still saw, and the standby would not delay replay past
// max_standby_streaming_delay) fails its attempt with X_REPLICA_CONFLICT,
// whose fix names hot_standby_feedback, and the retried run ends done.
func TestARecoveryConflictOnTheReplicaIsRetried(t *testing.T) {
	pair := fixtures.ReplicatedOwn(t)
	b, standby := replicaBundle(t, pair, replicaDDL+`;
		create function slow(i int) returns bool language sql as $$ select pg_sleep(0.002) is not null $$`)
	ctx := context.Background()
	for _, sql := range []string{`alter system set max_standby_streaming_delay = '10ms'`, `select pg_reload_conf()`} {
		if _, err := standby.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	in := b.in(t, "items")
	in.Columns, in.Where, in.PageRows = []string{"id"}, "slow(id)", 5000
	job := exportrows.MustNew(exportKey, replicaOptions(standby))
	res, err := job.Enqueue(ctx, b.pool, in)
	if err != nil {
		t.Fatal(err)
	}
	startWorker(t, b.pool, job)
	for reading := false; !reading; time.Sleep(5 * time.Millisecond) {
		if err := standby.QueryRow(ctx, `select count(*) > 0 from pg_stat_activity
			where state = 'active' and query like '%slow(id)%' and pid <> pg_backend_pid()`).Scan(&reading); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := b.pool.Exec(ctx, `delete from items where id <= 100`); err != nil {
		t.Fatal(err)
	}
	// A vacuum removes the deleted rows once no transaction on the primary
	// still needs them (the page's step holds one, for a moment), and the
	// standby, replaying the removal, cancels the read that sees them.
	for conflicted := false; !conflicted; time.Sleep(100 * time.Millisecond) {
		if _, err := b.pool.Exec(ctx, `vacuum items`); err != nil {
			t.Fatal(err)
		}
		if err := b.pool.QueryRow(ctx, `select attempt > 1 or state not in ('ready', 'running') from pipe.jobs where id = $1`, res.ID).Scan(&conflicted); err != nil {
			t.Fatal(err)
		}
	}
	d := awaitSettled(t, b.pool, res.ID)
	if d.State != "done" || d.Attempt < 2 {
		t.Fatalf("the run is %s after %d attempts (%s)", d.State, d.Attempt, lastError(d))
	}
	conflict := false
	for _, e := range d.Journal {
		conflict = conflict || strings.Contains(string(e.Data), string(errcode.ReplicaConflict)) && strings.Contains(string(e.Data), "hot_standby_feedback")
	}
	if !conflict {
		t.Fatalf("no attempt failed with %s: %+v", errcode.ReplicaConflict, d.Journal)
	}
}
