package exportrows_test

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/pipekit/pipe/exportrows"
)

// benchRows is how many orders the benchmarks export: 200,000, or
// EXPORTROWS_BENCH_ROWS.
func benchRows() int {
	if n, err := strconv.Atoi(os.Getenv("EXPORTROWS_BENCH_ROWS")); err == nil && n > 0 {
		return n
	}
	return 200_000
}

// benchOrders makes the anchors' orders table (uuid, uuid, bigint, text,
// timestamptz) with ids in random order, as UUIDv4 keys are.
func benchOrders(b *testing.B) *bundle {
	bn := setup(b, "")
	_, err := bn.pool.Exec(context.Background(), `create table orders(id uuid primary key, org_id uuid not null,
		total bigint not null, note text, created_at timestamptz not null)`)
	if err != nil {
		b.Fatal(err)
	}
	_, err = bn.pool.Exec(context.Background(), `insert into orders select md5('o' || i)::uuid, md5('org' || i % 50)::uuid, (i::bigint * 7919) % 10000000,
			(array['plain', 'with, comma', 'say "hi"', e'two\nlines', 'Zoë Ærøskøbing', '東京 注文', 'emoji 🚀 rocket'])[1 + i % 7],
			timestamptz '2026-01-01' + i * interval '1.234567 second'
		from generate_series(1, $1) i`, benchRows())
	if err == nil {
		_, err = bn.pool.Exec(context.Background(), `vacuum analyze orders`)
	}
	if err != nil {
		b.Fatal(err)
	}
	return bn
}

func BenchmarkExportCSV(b *testing.B) { benchExport(b, exportrows.CSV) }

func BenchmarkExportParquet(b *testing.B) { benchExport(b, exportrows.Parquet) }

// benchExport runs the export job over the orders, one run per iteration,
// and reports rows/s.
func benchExport(b *testing.B, format exportrows.Format) {
	bn := benchOrders(b)
	job := exportrows.MustNew(exportKey, options())
	startWorker(b, bn.pool, job)
	rows := 0
	if os.Getenv("EXPORTROWS_BENCH_RSS") != "" {
		b.Logf("before: rss %d KiB (anon %d), peak %d KiB", procStatus("VmRSS:"), procStatus("RssAnon:"), procStatus("VmHWM:"))
		defer func() {
			b.Logf("after: rss %d KiB (anon %d), peak %d KiB", procStatus("VmRSS:"), procStatus("RssAnon:"), procStatus("VmHWM:"))
		}()
	}
	b.ResetTimer()
	for i := range b.N {
		in := bn.in(b, "orders")
		in.Format, in.Run = format, strconv.Itoa(i)
		res, err := job.Enqueue(context.Background(), bn.pool, in)
		if err != nil {
			b.Fatal(err)
		}
		if d := awaitSettled(b, bn.pool, res.ID); d.State != "done" {
			b.Fatalf("%s: %s", d.State, lastError(d))
		}
		rows += benchRows()
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
	if kib := procStatus("VmHWM:"); kib > 0 {
		b.ReportMetric(float64(kib)/1024, "peak-rss-MiB")
	}
}

// procStatus answers a size from /proc/self/status in KiB (VmHWM: the
// peak resident set), or 0 where /proc does not tell.
func procStatus(field string) int {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(status)) {
		if rest, ok := strings.CutPrefix(line, field); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			return n
		}
	}
	return 0
}
