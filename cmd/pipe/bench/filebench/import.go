// Package filebench measures `pipe import` and `pipe export` beside their
// anchors. The import figure takes the
// 1,000,000-row orders file of the anchors' generator, imported with
// upsert semantics and checkpoints, against COPY into a staging table and
// one INSERT ... ON CONFLICT in one transaction (import-anchors.sh's
// copy+upsert). Each import or export runs in a helper process of its own,
// so its peak resident memory is the run's alone; an idle helper started
// in the same bench run — the same binary, connected and waiting — gives
// the baseline, and the difference is the work's own part ([Memory]).
package filebench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/importrows"
	"github.com/pipekit/pipe/internal/orders"
	"github.com/pipekit/pipe/pg"
)

// Options configure [Run]. Each field's comment gives its default.
type Options struct {
	// Rows is how many orders the generated file holds. Default 1,000,000.
	Rows int
	// File imports this CSV (header id,org_id,total,note,created_at)
	// instead of generating one.
	File string
	// PageBytes is the import's page size. Default importrows' 8 MiB.
	PageBytes int64
	// SkipAnchor skips the copy+upsert anchor.
	SkipAnchor bool
	// Parallel, over 1, times the import by that many ranges too, with as
	// many worker slots beside the parent's in one helper, and one plain
	// COPY of the file. Default 1: not.
	Parallel int
	// NoKey imports without a key: every row is inserted, as a plain COPY
	// does, and the anchor is one plain COPY instead of the copy+upsert.
	NoKey bool
}

// key answers the import's key: id, or none with NoKey.
func (o Options) key() []string {
	if o.NoKey {
		return nil
	}
	return []string{"id"}
}

// Result is the figures of one Run.
type Result struct {
	Rows          int64   `json:"rows"`
	FileBytes     int64   `json:"fileBytes"`
	AnchorSeconds float64 `json:"anchorSeconds,omitempty"`
	ImportSeconds float64 `json:"importSeconds"`
	Pages         int     `json:"pages"`
	Memory
	// The parallel import's figures (Options.Parallel over 1): its time,
	// its helper's memory, and one plain COPY's time.
	ParallelSeconds float64 `json:"parallelSeconds,omitempty"`
	ParallelMemory  *Memory `json:"parallelMemory,omitempty"`
	CopySeconds     float64 `json:"copySeconds,omitempty"`
}

// Run measures the anchor, then the import, printing a line per figure to
// out. url is the database the helper process connects to (pool's).
func Run(ctx context.Context, pool *pgxpool.Pool, url string, o Options, out io.Writer) (Result, error) {
	var res Result
	if !helperCapable.Load() {
		return res, errors.New("the import figure needs the program to call filebench.HelperMain at the start of main")
	}
	path, cleanup, err := o.file()
	if err != nil {
		return res, err
	}
	defer cleanup()
	if fi, err := os.Stat(path); err == nil {
		res.FileBytes = fi.Size()
	}
	defer pool.Exec(context.Background(), `drop table if exists `+table)
	if !o.SkipAnchor {
		if err := anchor(ctx, pool, path, o.NoKey, &res, out); err != nil {
			return res, err
		}
	}
	if err := measureImport(ctx, pool, url, path, o, &res, out); err != nil || o.Parallel < 2 {
		return res, err
	}
	return res, measureParallel(ctx, pool, url, path, o, &res, out)
}

// file answers the CSV to import: the given one, or a generated one that
// cleanup removes.
func (o Options) file() (string, func(), error) {
	if o.File != "" {
		return o.File, func() {}, nil
	}
	dir, err := os.MkdirTemp("", "pipe-bench-import-")
	if err != nil {
		return "", nil, err
	}
	path := filepath.Join(dir, "orders.csv")
	n := o.Rows
	if n == 0 {
		n = 1_000_000
	}
	if err := orders.WriteFile(path, n, ordersSeed); err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	return path, func() { os.RemoveAll(dir) }, nil
}

func anchor(ctx context.Context, pool *pgxpool.Pool, path string, noKey bool, res *Result, out io.Writer) error {
	if _, err := pool.Exec(ctx, tableDDL); err != nil {
		return err
	}
	if noKey {
		d, err := plainCopy(ctx, pool, path)
		if err != nil {
			return fmt.Errorf("plain copy anchor: %w", err)
		}
		res.AnchorSeconds = d.Seconds()
		fmt.Fprintf(out, "copy (anchor, one plain COPY, no key): %.2f s\n", d.Seconds())
		return nil
	}
	d, n, err := copyUpsert(ctx, pool, path)
	if err != nil {
		return fmt.Errorf("copy+upsert anchor: %w", err)
	}
	res.AnchorSeconds = d.Seconds()
	fmt.Fprintf(out, "copy+upsert (anchor): %d rows in %.2f s (%.0f rows/s)\n", n, d.Seconds(), float64(n)/d.Seconds())
	return nil
}

// measureImport starts an idle helper, then runs `pipe import` semantics in
// the work helper on a fresh table, and reads both helpers' peak RSS.
func measureImport(ctx context.Context, pool *pgxpool.Pool, url, path string, o Options, res *Result, out io.Writer) error {
	idleKiB, err := measureIdle(ctx, url, out)
	if err != nil {
		return err
	}
	if _, err := pool.Exec(ctx, tableDDL); err != nil {
		return err
	}
	in := importrows.FileImport{Source: path, Into: pg.Relation{Name: table}, Key: o.key(),
		Errors: filepath.Join(filepath.Dir(path), "errors"), Limits: importrows.Limits{PageBytes: o.PageBytes}}
	r, err := runHelper(ctx, url, importrows.TableJobName, in)
	if err != nil {
		return err
	}
	var ir importrows.Result
	if err := json.Unmarshal(r.Result, &ir); err != nil {
		return err
	}
	res.Rows, res.ImportSeconds, res.Pages = ir.Rows, r.Seconds, ir.Pages
	res.Memory = memory(r.PeakKiB, idleKiB)
	fmt.Fprintf(out, "import: %d rows in %.2f s (%.0f rows/s), %d pages, peak rss %.0f MiB, the import's own %.0f MiB%s\n",
		res.Rows, res.ImportSeconds, float64(res.Rows)/res.ImportSeconds, res.Pages, res.PeakMiB, res.OwnMiB, ratio(res))
	return nil
}

func ratio(r *Result) string {
	if r.AnchorSeconds == 0 {
		return ""
	}
	return fmt.Sprintf(", %.2fx the anchor's time", r.ImportSeconds/r.AnchorSeconds)
}

// measureIdle starts the idle helper, prints its peak and answers it in
// KiB.
func measureIdle(ctx context.Context, url string, out io.Writer) (int64, error) {
	kib, err := runIdle(ctx, url)
	if err != nil {
		return 0, err
	}
	fmt.Fprintf(out, "idle pipe (connected, waiting): peak rss %.0f MiB\n", mib(kib))
	return kib, nil
}
