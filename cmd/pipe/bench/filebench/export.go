package filebench

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/internal/orders"
	"github.com/pipekit/pipe/pg"
)

// The export figures' table, its own so that the import figures can run
// beside them.
const (
	exportTable = "pipe_bench_export"
	exportDDL   = `drop table if exists pipe_bench_export;
create table pipe_bench_export(id uuid primary key, org_id uuid not null, total bigint not null, note text, created_at timestamptz not null)`
)

// ExportOptions configure [RunExport]. Each field's comment gives its
// default.
type ExportOptions struct {
	// Rows is how many orders the table holds. Default 1,000,000.
	Rows int
	// PageRows is the export's page size. Default exportrows' 100,000.
	PageRows int
	// Parallel is how many key ranges the parallel run reads at once.
	// Default 2.
	Parallel int
}

// ExportResult is the figures of one RunExport. The CSV and Parquet
// figures are in key order (keyset pages, the default); the Snapshot ones
// with exportrows.Snapshot.
type ExportResult struct {
	Rows int64 `json:"rows"`
	// AnchorSeconds is the faster of the anchor's two runs, before and after
	// pipe's.
	AnchorSeconds          float64    `json:"anchorSeconds"`
	AnchorRuns             [2]float64 `json:"anchorRuns"`
	CSVSeconds             float64    `json:"csvSeconds"`
	CSVSnapshotSeconds     float64    `json:"csvSnapshotSeconds"`
	ParquetSeconds         float64    `json:"parquetSeconds"`
	ParquetSnapshotSeconds float64    `json:"parquetSnapshotSeconds"`
	// CSVParallelSeconds is the CSV export in key order in Parallel ranges
	// (each a run of its own, all in one snapshot), in one helper whose
	// worker has a slot for the parent and each range.
	CSVParallelSeconds float64 `json:"csvParallelSeconds"`
	Parallel           int     `json:"parallel"`
	// Runs are the four runs' figures, memory included.
	Runs []ExportRun `json:"runs"`
	// Memory is the highest peak and the highest own part of the runs.
	Memory
}

// ExportRun is one export of RunExport.
type ExportRun struct {
	Format   exportrows.Format `json:"format"`
	Order    exportrows.Order  `json:"order"`
	Parallel int               `json:"parallel,omitempty"`
	Seconds  float64           `json:"seconds"`
	Memory
}

// RunExport loads the orders into pipe_bench_export, then times the anchor
// — COPY (SELECT ...) TO STDOUT in CSV into a file, what `psql \copy ... to`
// does — beside `pipe export` to CSV and to Parquet with zstd, each in key
// order and in snapshot order, each run in a helper process whose peak RSS
// it reports beside an idle helper's, and the anchor again: the ratios are
// to the faster anchor run. It drops the table after.
func RunExport(ctx context.Context, pool *pgxpool.Pool, url string, o ExportOptions, out io.Writer) (ExportResult, error) {
	var res ExportResult
	if !helperCapable.Load() {
		return res, fmt.Errorf("the export figures need the program to call filebench.HelperMain at the start of main")
	}
	dir, err := os.MkdirTemp("", "pipe-bench-export-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(dir)
	defer pool.Exec(context.Background(), `drop table if exists `+exportTable)
	if res.Rows, err = loadOrders(ctx, pool, dir, o.Rows); err != nil {
		return res, err
	}
	if res.AnchorRuns[0], err = copyTo(ctx, pool, filepath.Join(dir, "anchor.csv")); err != nil {
		return res, err
	}
	fmt.Fprintf(out, "copy to (anchor): %d rows in %.2f s (%.0f rows/s)\n", res.Rows, res.AnchorRuns[0], float64(res.Rows)/res.AnchorRuns[0])
	idleKiB, err := measureIdle(ctx, url, out)
	if err != nil {
		return res, err
	}
	res.Parallel = o.Parallel
	if res.Parallel == 0 {
		res.Parallel = 2
	}
	runs := []struct {
		format   exportrows.Format
		order    exportrows.Order
		parallel int
		into     *float64
	}{
		{exportrows.CSV, exportrows.ByKey, 0, &res.CSVSeconds},
		{exportrows.CSV, exportrows.ByKey, res.Parallel, &res.CSVParallelSeconds},
		{exportrows.CSV, exportrows.Snapshot, 0, &res.CSVSnapshotSeconds},
		{exportrows.Parquet, exportrows.ByKey, 0, &res.ParquetSeconds},
		{exportrows.Parquet, exportrows.Snapshot, 0, &res.ParquetSnapshotSeconds},
	}
	for _, r := range runs {
		in := exportrows.TableExport{From: pg.Relation{Name: exportTable}, Format: r.format, Order: r.order, PageRows: o.PageRows, Parallel: r.parallel}
		h, err := runExport(ctx, url, dir, in, res.Rows)
		if err != nil {
			return res, err
		}
		*r.into = h.Seconds
		run := ExportRun{Format: r.format, Order: r.order, Parallel: r.parallel, Seconds: h.Seconds, Memory: memory(h.PeakKiB, idleKiB)}
		res.Runs = append(res.Runs, run)
		res.Memory = Memory{PeakMiB: max(res.PeakMiB, run.PeakMiB), IdleMiB: run.IdleMiB, OwnMiB: max(res.OwnMiB, run.OwnMiB)}
		fmt.Fprintf(out, "export %s, %s order%s: %d rows in %.2f s (%.0f rows/s), peak rss %.0f MiB, the export's own %.0f MiB\n",
			exportLabel(r.format), r.order, parallelLabel(r.parallel), res.Rows, h.Seconds, float64(res.Rows)/h.Seconds, run.PeakMiB, run.OwnMiB)
	}
	if res.AnchorRuns[1], err = copyTo(ctx, pool, filepath.Join(dir, "anchor.csv")); err != nil {
		return res, err
	}
	res.AnchorSeconds = min(res.AnchorRuns[0], res.AnchorRuns[1])
	fmt.Fprintf(out, "copy to (anchor) again: %.2f s; csv against the faster anchor run: %.2fx in key order, %.2fx in %d ranges, %.2fx in snapshot order; %d ranges against one run in key order: %.2fx as fast\n",
		res.AnchorRuns[1], res.CSVSeconds/res.AnchorSeconds, res.CSVParallelSeconds/res.AnchorSeconds, res.Parallel,
		res.CSVSnapshotSeconds/res.AnchorSeconds, res.Parallel, res.CSVSeconds/res.CSVParallelSeconds)
	return res, nil
}

func parallelLabel(n int) string {
	if n < 2 {
		return ""
	}
	return fmt.Sprintf(", %d ranges in parallel", n)
}

func exportLabel(f exportrows.Format) string {
	if f == exportrows.Parquet {
		return "parquet (zstd)"
	}
	return string(f)
}

// loadOrders fills pipe_bench_export with n generated orders (untimed).
func loadOrders(ctx context.Context, pool *pgxpool.Pool, dir string, n int) (int64, error) {
	if n == 0 {
		n = 1_000_000
	}
	path := filepath.Join(dir, "orders.csv")
	if err := orders.WriteFile(path, n, ordersSeed); err != nil {
		return 0, err
	}
	defer os.Remove(path)
	if _, err := pool.Exec(ctx, exportDDL); err != nil {
		return 0, err
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Release()
	tag, err := conn.Conn().PgConn().CopyFrom(ctx, f, `copy pipe_bench_export from stdin (format csv, header)`)
	if err != nil {
		return 0, err
	}
	_, err = conn.Exec(ctx, `vacuum analyze pipe_bench_export`)
	return tag.RowsAffected(), err
}

// copyTo is the anchor: the table out as CSV into a file.
func copyTo(ctx context.Context, pool *pgxpool.Pool, path string) (float64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	defer os.Remove(path)
	defer f.Close()
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Release()
	// Buffered as psql's stdio is: CopyTo hands over one message a row, and
	// a write(2) for each would time the system calls, not COPY.
	w := bufio.NewWriterSize(f, 64<<10)
	start := time.Now()
	if _, err := conn.Conn().PgConn().CopyTo(ctx, w, `copy (select * from pipe_bench_export) to stdout (format csv, header)`); err != nil {
		return 0, err
	}
	if err := w.Flush(); err != nil {
		return 0, err
	}
	return time.Since(start).Seconds(), nil // no fsync, as psql \copy does none
}

// runExport exports the table in format in a helper process; an export of
// other than the table's rows is an error, not a figure.
func runExport(ctx context.Context, url, dir string, in exportrows.TableExport, want int64) (*helperReport, error) {
	in.To = filepath.Join(dir, fmt.Sprintf("%s-%s-%d", in.Format, in.Order, in.Parallel))
	r, err := runHelper(ctx, url, exportrows.TableJobName, in)
	if err != nil {
		return nil, err
	}
	var er exportrows.Result
	if err := json.Unmarshal(r.Result, &er); err != nil {
		return nil, err
	}
	if er.Rows != want {
		return nil, fmt.Errorf("the %s export in %s order wrote %d rows of the table's %d", in.Format, in.Order, er.Rows, want)
	}
	return r, nil
}
