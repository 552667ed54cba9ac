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

	"github.com/pipekit/pipe/importrows"
	"github.com/pipekit/pipe/pg"
)

// measureParallel times one plain COPY of the file into a fresh table,
// then the import by o.Parallel ranges (worked by as many slots beside the
// parent's, in one helper) into another, both beside the sequential
// import just measured.
func measureParallel(ctx context.Context, pool *pgxpool.Pool, url, path string, o Options, res *Result, out io.Writer) error {
	idleKiB, err := runIdle(ctx, url)
	if err != nil {
		return err
	}
	if _, err := pool.Exec(ctx, tableDDL); err != nil {
		return err
	}
	d, err := plainCopy(ctx, pool, path)
	if err != nil {
		return fmt.Errorf("plain copy: %w", err)
	}
	res.CopySeconds = d.Seconds()
	fmt.Fprintf(out, "copy (one plain COPY, no key): %.2f s\n", res.CopySeconds)
	if _, err := pool.Exec(ctx, tableDDL); err != nil {
		return err
	}
	in := importrows.FileImport{Source: path, Into: pg.Relation{Name: table}, Key: o.key(),
		Errors: filepath.Join(filepath.Dir(path), "errors"),
		Limits: importrows.Limits{PageBytes: o.PageBytes, Parallel: o.Parallel, RangeBytes: 64 << 10}}
	r, err := runHelper(ctx, url, importrows.TableJobName, in)
	if err != nil {
		return err
	}
	var ir importrows.Result
	if err := json.Unmarshal(r.Result, &ir); err != nil {
		return err
	}
	m := memory(r.PeakKiB, idleKiB)
	res.ParallelSeconds, res.ParallelMemory = r.Seconds, &m
	fmt.Fprintf(out, "import --parallel %d: %d rows in %.2f s, %.2fx the sequential import's speed, %.2fx one plain COPY's time, peak rss %.0f MiB (%d ranges' slots and the parent in one process)\n",
		o.Parallel, ir.Rows, r.Seconds, res.ImportSeconds/r.Seconds, r.Seconds/res.CopySeconds, m.PeakMiB, o.Parallel)
	return nil
}

// plainCopy is one COPY of the whole file into the table, no key.
func plainCopy(ctx context.Context, pool *pgxpool.Pool, path string) (time.Duration, error) {
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
	start := time.Now()
	_, err = conn.Conn().PgConn().CopyFrom(ctx, f, `copy `+table+` from stdin (format csv, header)`)
	return time.Since(start), err
}
