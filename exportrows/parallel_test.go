package exportrows_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/pipeline"
)

// The union of a parallel export's parts, read in the manifest's order,
// is the sequential export's, for a uuid key and a composite key; the
// manifest lists every part in key order.
func TestParallelExportEqualsSequential(t *testing.T) {
	b := setup(t, `create table u(id uuid primary key, note text, n int);
		insert into u select gen_random_uuid(), 'note ' || i, i from generate_series(1, 3000) i;
		create table c(a int, b text, v numeric, primary key (a, b));
		insert into c select i % 37, 'b' || i, i / 7.0 from generate_series(1, 3000) i;
		create table i(id int primary key, note text);
		insert into i select g, 'n' || g from generate_series(1, 3000) g;
		analyze u; analyze c; analyze i`)
	// i's keys sort otherwise as text (1, 10, 100, ...): the ranges follow
	// the key's order.
	for _, table := range []string{"u", "c", "i"} {
		in := exportrows.TableExport{From: pg.Relation{Name: table}, To: t.TempDir(), PageRows: 200}
		_, seq := run(t, b.pool, exportrows.TableJob(), in)
		in.Parallel = 5
		d, par := run(t, b.pool, exportrows.TableJob(), in)
		if d.State != "done" {
			t.Fatalf("%s: parallel export %s: %s", table, d.State, lastError(d))
		}
		sk, sm := manifestOf(t, seq)
		bk, pm := manifestOf(t, par)
		if pm.Ranges != 5 || pm.Snapshots != 1 || pm.Rows != 3000 || par.Rows != 3000 || len(pm.Parts) < 3 {
			t.Fatalf("%s: manifest of %d ranges, %d snapshots, %d rows in %d parts", table, pm.Ranges, pm.Snapshots, pm.Rows, len(pm.Parts))
		}
		keys := make([]string, len(pm.Parts))
		for i, p := range pm.Parts {
			keys[i] = p.Key
		}
		if !slices.IsSorted(keys) {
			t.Errorf("%s: parts out of order: %v", table, keys)
		}
		if got, want := records(t, bk, pm), records(t, sk, sm); got != want {
			t.Errorf("%s: the parallel export's records differ from the sequential export's", table)
		}
	}
}

// records answers the data records of every part of m, in order, headers
// dropped.
func records(t *testing.T, bk *blob.Bucket, m *exportrows.Manifest) string {
	t.Helper()
	var all bytes.Buffer
	for _, p := range m.Parts {
		data := decoded(t, bk, p.Key)
		_, body, _ := bytes.Cut(data, []byte("\n"))
		all.Write(body)
	}
	return all.String()
}

// While a parallel export runs, rows are updated, deleted and inserted:
// the export is the table as it was when the export's snapshot was taken.
func TestParallelExportReadsOneSnapshot(t *testing.T) {
	b := setup(t, `create table s(id int primary key, note text);
		insert into s select i, 'before ' || i from generate_series(1, 30000) i; analyze s`)
	want := tableCSV(t, b.pool)
	in := exportrows.TableExport{From: pg.Relation{Name: "s"}, To: b.bucket, PageRows: 1000, Parallel: 3}
	job := exportrows.TableJob()
	res, err := job.Enqueue(context.Background(), b.pool, in)
	if err != nil {
		t.Fatal(err)
	}
	// The parent takes the one slot of its worker: no range starts before
	// the writes, and a range that read the table as it is would see them.
	startSlots(t, b.pool, 1, job)
	children := awaitChildren(t, b.pool, res.ID)
	if _, err := b.pool.Exec(context.Background(), `update s set note = 'after' where id % 3 = 0; delete from s where id % 7 = 0;
		insert into s select i, 'new' from generate_series(30001, 31000) i`); err != nil {
		t.Fatal(err)
	}
	startWorker(t, b.pool, job)
	awaitPages(t, b.pool, children[1], 2)
	d := awaitSettled(t, b.pool, res.ID)
	if d.State != "done" {
		t.Fatalf("%s: %s", d.State, lastError(d))
	}
	var out exportrows.Result
	if err := json.Unmarshal(d.Result, &out); err != nil {
		t.Fatal(err)
	}
	bk, m := manifestOf(t, out)
	if got := records(t, bk, m); got != want {
		t.Fatalf("the export is not the table at its snapshot: %d bytes where %d were due", len(got), len(want))
	}
	if tableCSV(t, b.pool) == want {
		t.Fatal("the writes changed nothing: the test proves nothing")
	}
}

// The parent's connection, holding the snapshot, is terminated mid-way:
// the export fails with X_EXPORT_SNAPSHOT_LOST.
func TestParallelExportSnapshotLost(t *testing.T) {
	b := setup(t, `create table l(id int primary key, note text);
		insert into l select i, repeat('x', 50) from generate_series(1, 30000) i; analyze l`)
	in := exportrows.TableExport{From: pg.Relation{Name: "l"}, To: b.bucket, PageRows: 100, Parallel: 2}
	job := exportrows.TableJob()
	res, err := job.Enqueue(context.Background(), b.pool, in)
	if err != nil {
		t.Fatal(err)
	}
	startWorker(t, b.pool, job)
	children := awaitChildren(t, b.pool, res.ID)
	awaitPages(t, b.pool, children[0], 2)
	var n int
	if err := b.pool.QueryRow(context.Background(), `select count(pg_terminate_backend(pid)) from pg_stat_activity
		where application_name = $1 and datname = current_database()`, exportrows.SnapshotApplication).Scan(&n); err != nil || n != 1 {
		t.Fatalf("terminated %d snapshot connections: %v", n, err)
	}
	d := awaitSettled(t, b.pool, res.ID)
	if d.State != "dead" || lastCode(d) != "X_EXPORT_SNAPSHOT_LOST" {
		t.Fatalf("%s: %s; want dead with X_EXPORT_SNAPSHOT_LOST", d.State, lastError(d))
	}
	// Every range settles: cancelled with its parent, done if it finished
	// first, or dead with the same code if it met the lost snapshot before
	// the parent's cancel reached it (a CI run saw that race).
	for _, id := range children {
		c := awaitSettled(t, b.pool, id)
		lost := c.State == "dead" && lastCode(c) == "X_EXPORT_SNAPSHOT_LOST"
		if c.State != "cancelled" && c.State != "done" && !lost {
			t.Errorf("range %s: %s (%s); want it cancelled with its parent, done, or dead with X_EXPORT_SNAPSHOT_LOST", id, c.State, lastError(c))
		}
	}
}

// startSlots starts a worker of slots slots on the queue pipe.
func startSlots(t *testing.T, pool *pgxpool.Pool, slots int, jobs ...pipeline.Registrable) {
	t.Helper()
	reg, err := pipeline.NewRegistry(jobs...)
	if err != nil {
		t.Fatal(err)
	}
	w, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg, Queues: map[string]int{"pipe": slots},
		PollInterval: 10 * time.Millisecond, IdlePollMax: 50 * time.Millisecond, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = w.Shutdown(ctx)
	})
}

// awaitChildren waits for the parent's ranges step and answers its
// children's job ids.
func awaitChildren(t *testing.T, pool *pgxpool.Pool, id string) []string {
	t.Helper()
	admin := pipeline.NewAdmin(pool)
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		d, err := admin.Show(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range d.Steps {
			if s.Name == "ranges" && s.State == "completed" {
				var f struct{ Children []string }
				if err := json.Unmarshal(s.Output, &f); err != nil {
					t.Fatal(err)
				}
				return f.Children
			}
		}
	}
	t.Fatal("no ranges step after 60s")
	return nil
}

// tableCSV answers the test tables (id, note) as the export writes them.
func tableCSV(t *testing.T, pool *pgxpool.Pool) string {
	t.Helper()
	rows, err := pool.Query(context.Background(), `select id, note from s order by id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var sb strings.Builder
	for rows.Next() {
		var id int
		var note string
		if err := rows.Scan(&id, &note); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&sb, "%d,%s\n", id, note)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return sb.String()
}

// What a parallel export cannot read is refused with X_JOB_INPUT_INVALID:
// before the enqueue (out of range, snapshot order) or at the run (a
// query), leaving no range behind.
func TestParallelExportRefusals(t *testing.T) {
	for _, in := range []exportrows.TableExport{
		{From: pg.Relation{Name: "t"}, To: "/tmp/x", Parallel: -1},
		{From: pg.Relation{Name: "t"}, To: "/tmp/x", Parallel: exportrows.MaxParallel + 1},
		{From: pg.Relation{Name: "t"}, To: "/tmp/x", Parallel: 2, Order: exportrows.Snapshot},
	} {
		if err := in.Check(); errcode.CodeOf(err) != errcode.JobInputInvalid {
			t.Errorf("parallel %d, order %q: %v", in.Parallel, in.Order, err)
		}
	}
	b := setup(t, `create table q(id int primary key)`)
	o := options()
	o.Parallel = func(exportIn) int { return 2 }
	o.WithRange = func(in exportIn, _ *exportrows.Range) exportIn { return in }
	o.RangeOf = func(exportIn) *exportrows.Range { return nil }
	in := b.in(t, "")
	in.Table, in.Query, in.Key = "", "select id from q", []string{"id"}
	d, _ := run(t, b.pool, exportrows.MustNew(exportKey, o), in)
	if d.State != "dead" || lastCode(d) != "X_JOB_INPUT_INVALID" || len(d.Steps) != 1 {
		t.Fatalf("a parallel query: %s, %s, %d steps", d.State, lastError(d), len(d.Steps))
	}
	if _, err := exportrows.New(exportKey, exportrows.Options[exportIn]{Name: "x", Source: o.Source, Sink: o.Sink, Parallel: o.Parallel}); errcode.CodeOf(err) != errcode.JobDeclarationInvalid {
		t.Fatalf("Parallel without WithRange and RangeOf: %v", err)
	}
}

// parallelOptions declares the test export with Parallel, its range
// carried in exportIn.
func parallelOptions(lifetime time.Duration) exportrows.Options[exportIn] {
	o := options()
	o.Parallel = func(in exportIn) int { return in.Parallel }
	o.WithRange = func(in exportIn, r *exportrows.Range) exportIn { in.Range = r; return in }
	o.RangeOf = func(in exportIn) *exportrows.Range { return in.Range }
	o.SnapshotLifetime = lifetime
	return o
}

// Through the Go API, with a key function that ignores the range: the
// ranges are runs of their own (their keys name them), and a snapshot held
// past its lifetime fails the export with X_EXPORT_SNAPSHOT_LOST.
func TestParallelExportThroughTheGoAPI(t *testing.T) {
	b := setup(t, `create table g(id bigint primary key, note text);
		insert into g select i, 'n' || i from generate_series(1, 20000) i; analyze g`)
	in := b.in(t, "g")
	in.Parallel, in.PageRows = 4, 250
	res := b.export(t, parallelOptions(0), in)
	bk, m := manifestOf(t, res)
	if m.Ranges != 4 || res.Rows != 20000 || !strings.HasPrefix(m.Parts[0].Key, "exports/") {
		t.Fatalf("%d ranges, %d rows, first part %s", m.Ranges, res.Rows, m.Parts[0].Key)
	}
	if got := records(t, bk, m); strings.Count(got, "\n") != 20000 || !strings.HasPrefix(got, "1,n1\n2,n2\n") {
		t.Fatalf("records %.40q...", got)
	}
	in.Run += "-short"
	short := parallelOptions(time.Millisecond)
	short.Name = "test.export.short" // not the first job's worker's
	d, _ := run(t, b.pool, exportrows.MustNew(exportKey, short), in)
	if d.State != "dead" || lastCode(d) != "X_EXPORT_SNAPSHOT_LOST" || !strings.Contains(d.LastError.Message, "lifetime") {
		t.Fatalf("%s: %s; want dead with X_EXPORT_SNAPSHOT_LOST, its lifetime passed", d.State, lastError(d))
	}
}
