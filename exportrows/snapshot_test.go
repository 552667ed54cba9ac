package exportrows_test

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// firstColumn answers the first cell of every row of every part, as
// integers, in part order.
func firstColumn(t *testing.T, res exportrows.Result) []int {
	t.Helper()
	var out []int
	for _, body := range partsText(t, res) {
		for _, line := range strings.Split(body, "\n") {
			cell, _, _ := strings.Cut(line, ",")
			n, err := strconv.Atoi(cell)
			if err != nil {
				t.Fatalf("row %q: %v", line, err)
			}
			out = append(out, n)
		}
	}
	return out
}

// padded makes table (n int, pad text) of rows rows numbered from 1, each
// padded to width, analyzed, and answers a snapshot export of it in pages
// of pageRows rows.
func padded(t *testing.T, table string, rows, width, pageRows int) (*bundle, exportIn) {
	t.Helper()
	b := setup(t, fmt.Sprintf(`create table %[1]s(n int, pad text);
		insert into %[1]s select i, repeat('x', %[3]d) from generate_series(1, %[2]d) i;
		analyze %[1]s`, table, rows, width))
	in := b.in(t, table)
	in.Order, in.PageRows = exportrows.Snapshot, pageRows
	return b, in
}

// A snapshot export walks a table with no key at all in ranges of blocks:
// several parts, every row once, and a manifest that says how it read.
func TestSnapshotExportReadsATableWithoutAKeyOnce(t *testing.T) {
	b, in := padded(t, "loose", 3000, 200, 500)
	in.Columns = []string{"n"}
	res := b.export(t, options(), in)
	got := firstColumn(t, res)
	slices.Sort(got)
	if len(got) != 3000 || got[0] != 1 || got[2999] != 3000 || len(slices.Compact(slices.Clone(got))) != 3000 {
		t.Fatalf("%d rows exported, want 1..3000 once each", len(got))
	}
	_, m := manifestOf(t, res)
	if m.Order != exportrows.Snapshot || m.Snapshots != 1 || len(m.Key) != 0 || len(m.Parts) < 4 || m.Rows != 3000 {
		t.Fatalf("manifest: order %s, %d snapshots, key %v, %d parts, %d rows", m.Order, m.Snapshots, m.Key, len(m.Parts), m.Rows)
	}
}

// Every page of a snapshot export reads the table as it was when the first
// began: rows moved to other blocks while it runs (updates of an indexed
// column are never HOT) are exported once each.
// Read page by page in transactions of their own, the same export doubles
// rows that moved past the page that read them.
func TestSnapshotExportIsAPointInTime(t *testing.T) {
	b := setup(t, `create table moving(id int primary key, v int not null, pad text);
		create index on moving (v);
		insert into moving select i, 0, repeat('y', 100) from generate_series(1, 20000) i;
		analyze moving`)
	ctx, stop := context.WithCancel(context.Background())
	var moved atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		for k := 0; ctx.Err() == nil; k++ {
			tag, err := b.pool.Exec(ctx, `update moving set v = v + 1 where id % 40 = $1`, k%40)
			if err == nil {
				moved.Add(tag.RowsAffected())
			}
		}
	}()
	in := b.in(t, "moving")
	in.Order, in.PageRows, in.Columns = exportrows.Snapshot, 200, []string{"id", "v"}
	res := b.export(t, options(), in)
	stop()
	<-done
	if moved.Load() == 0 {
		t.Fatal("no row moved while the export ran: the test proved nothing")
	}
	_, m := manifestOf(t, res)
	ids := firstColumn(t, res)
	slices.Sort(ids)
	if len(ids) != 20000 || len(slices.Compact(ids)) != 20000 || m.Snapshots != 1 {
		t.Fatalf("%d rows exported (%d ids) in %d snapshots while %d row versions moved; want 20000 once each, in 1",
			m.Rows, len(slices.Compact(ids)), m.Snapshots, moved.Load())
	}
	if len(m.Parts) < 10 {
		t.Fatalf("%d parts: the test needs many pages", len(m.Parts))
	}
}

// Killed after each of its steps, a snapshot export of a table at rest
// resumes and ends with exactly the objects a clean run writes.
func TestSnapshotExportCrashAtEveryBoundary(t *testing.T) {
	b, in := padded(t, "wide", 300, 300, 50)
	in.Compression = string(blob.CompressionGzip)
	bk := openBucket(t, b.bucket)
	fixtures.MustCrashProof(t, b.pool, exportrows.MustNew(exportKey, options()), in, fixtures.CrashProofOptions{
		Reset:   func(ctx context.Context) error { return removeAll(ctx, bk, "exports/") },
		Effects: func(ctx context.Context) (any, error) { return runObjects(ctx, bk, "exports/") },
	})
}

// A snapshot export reads a table's storage: a query, a declared key and
// a view are refused before anything is read.
func TestSnapshotExportRefusals(t *testing.T) {
	b := setup(t, `create table plain(id int primary key); create view seen as select 1 as a`)
	for _, tc := range []struct {
		name string
		in   func(exportIn) exportIn
	}{
		{"query", func(in exportIn) exportIn { in.Table, in.Query, in.Key = "", "select 1 as a", []string{"a"}; return in }},
		{"key", func(in exportIn) exportIn { in.Key = []string{"id"}; return in }},
		{"view", func(in exportIn) exportIn { in.Table = "seen"; return in }},
		{"order", func(in exportIn) exportIn { in.Order = "sideways"; return in }},
	} {
		in := b.in(t, "plain")
		in.Order, in.Run = exportrows.Snapshot, tc.name
		d, _ := run(t, b.pool, exportrows.MustNew(exportKey, options()), tc.in(in))
		if lastCode(d) != "X_EXPORT_SOURCE_INVALID" || d.Attempt != 1 {
			t.Errorf("%s: %s after %d attempts: %s", tc.name, d.State, d.Attempt, lastError(d))
		}
	}
}

// A snapshot export filters with Where and its Args as a keyset one does:
// the block range's parameters come after the filter's.
func TestSnapshotExportFilters(t *testing.T) {
	b, in := padded(t, "evens", 1000, 200, 100)
	in.Columns = []string{"n"}
	in.Where, in.Args = "n % $1 = $2", []any{2, 0}
	got := firstColumn(t, b.export(t, options(), in))
	slices.Sort(got)
	if len(got) != 500 || got[0] != 2 || got[499] != 1000 || slices.ContainsFunc(got, func(n int) bool { return n%2 != 0 }) {
		t.Fatalf("%d rows exported, want the 500 even ones", len(got))
	}
}

// More snapshot exports at once than the worker's pool has connections
// cannot lock the worker up (each holds a connection for its snapshot and
// needs another for every page's step): the held connections have a budget
// of half the pool, so every export ends done.
func TestMoreSnapshotExportsThanConnections(t *testing.T) {
	ctx := context.Background()
	b, in := padded(t, "crowded", 2000, 100, 200)
	cfg, err := pgxpool.ParseConfig(fixtures.DBURL(t))
	if err != nil {
		t.Fatal(err)
	}
	cfg.ConnConfig.Database = b.pool.Config().ConnConfig.Database
	cfg.MaxConns = 4
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	job := exportrows.MustNew(exportKey, options())
	var ids []string
	for i := range 8 {
		in.Run = fmt.Sprint(t.Name(), "-", i)
		res, err := job.Enqueue(ctx, pool, in)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.ID)
	}
	reg, err := pipeline.NewRegistry(job)
	if err != nil {
		t.Fatal(err)
	}
	w, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg, Queues: map[string]int{pipeline.DefaultQueue: 8},
		PollInterval: 10 * time.Millisecond, IdlePollMax: 50 * time.Millisecond, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Shutdown(context.Background()) })
	for _, id := range ids {
		d := awaitSettled(t, b.pool, id)
		if d.State != "done" {
			t.Fatalf("export %s: %s", d.State, lastError(d))
		}
	}
}
