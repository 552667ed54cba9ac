package filebench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/exportrows"
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
}

// ExportResult is the figures of one RunExport.
type ExportResult struct {
	Rows           int64   `json:"rows"`
	AnchorSeconds  float64 `json:"anchorSeconds"`
	CSVSeconds     float64 `json:"csvSeconds"`
	ParquetSeconds float64 `json:"parquetSeconds"`
	PeakRSSMiB     float64 `json:"peakRssMiB"`
	PeakAnonMiB    float64 `json:"peakAnonMiB"`
}

// RunExport loads the orders into pipe_bench_export, then times the anchor
// — COPY (SELECT ...) TO STDOUT in CSV into a file, what `psql \copy ... to`
// does — beside `pipe export` to CSV and to Parquet with zstd, each run in a
// helper process whose peak RSS it reports. It drops the table after.
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
	if res.AnchorSeconds, err = copyTo(ctx, pool, filepath.Join(dir, "anchor.csv")); err != nil {
		return res, err
	}
	fmt.Fprintf(out, "copy to (anchor): %d rows in %.2f s (%.0f rows/s)\n", res.Rows, res.AnchorSeconds, float64(res.Rows)/res.AnchorSeconds)
	csv, err := runExport(ctx, url, dir, exportrows.CSV, o.PageRows, res.Rows)
	if err != nil {
		return res, err
	}
	res.CSVSeconds, res.PeakRSSMiB, res.PeakAnonMiB = csv.Seconds, csv.PeakRSSMiB, csv.PeakAnonMiB
	fmt.Fprintf(out, "export csv: %d rows in %.2f s (%.0f rows/s), peak rss %.0f MiB (%.0f MiB anonymous), %.2fx the anchor's time\n",
		res.Rows, csv.Seconds, float64(res.Rows)/csv.Seconds, csv.PeakRSSMiB, csv.PeakAnonMiB, csv.Seconds/res.AnchorSeconds)
	pq, err := runExport(ctx, url, dir, exportrows.Parquet, o.PageRows, res.Rows)
	if err != nil {
		return res, err
	}
	res.ParquetSeconds = pq.Seconds
	fmt.Fprintf(out, "export parquet (zstd): %d rows in %.2f s (%.0f rows/s), peak rss %.0f MiB (%.0f MiB anonymous)\n",
		res.Rows, pq.Seconds, float64(res.Rows)/pq.Seconds, pq.PeakRSSMiB, pq.PeakAnonMiB)
	return res, nil
}

// loadOrders fills pipe_bench_export with n generated orders (untimed).
func loadOrders(ctx context.Context, pool *pgxpool.Pool, dir string, n int) (int64, error) {
	if n == 0 {
		n = 1_000_000
	}
	path := filepath.Join(dir, "orders.csv")
	if err := writeOrdersFile(path, n); err != nil {
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
	start := time.Now()
	if _, err := conn.Conn().PgConn().CopyTo(ctx, f, `copy (select * from pipe_bench_export) to stdout (format csv, header)`); err != nil {
		return 0, err
	}
	return time.Since(start).Seconds(), nil // no fsync, as psql \copy does none
}

// runExport exports the table in format in a helper process; an export of
// other than the table's rows is an error, not a figure.
func runExport(ctx context.Context, url, dir string, format exportrows.Format, pageRows int, want int64) (*helperRun, error) {
	in := exportrows.TableExport{Table: exportTable, To: filepath.Join(dir, string(format)), Format: format, PageRows: pageRows}
	r, err := runHelper(ctx, url, exportrows.TableJobName, in)
	if err != nil {
		return nil, err
	}
	var er exportrows.Result
	if err := json.Unmarshal(r.Result, &er); err != nil {
		return nil, err
	}
	if er.Rows != want {
		return nil, fmt.Errorf("the %s export wrote %d rows of the table's %d", format, er.Rows, want)
	}
	return r, nil
}
