package pipecli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/pipekit/pipe/backfill"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// withAdminDB is withAdmin that also hands fn the database, for the
// backfill ledger `pipe jobs list` and `show` read beside the runs.
func (a *app) withAdminDB(ctx context.Context, fn func(*pipeline.Admin, pipeline.DB) error) error {
	pool, err := a.connect(ctx, migrated)
	if err != nil {
		return err
	}
	defer pool.Close()
	return fn(pipeline.NewAdmin(pool), pool)
}

// pageJSON is what `pipe jobs list --json` prints: the page, and the
// backfill passes in flight under "backfills" (rows so far, cursor).
type pageJSON struct {
	pipeline.Page
	Backfills []backfill.Pass `json:"backfills,omitempty"`
}

// inFlight answers the backfill passes in flight, at most a page of them.
func inFlight(ctx context.Context, db pipeline.DB, limit int) ([]backfill.Pass, error) {
	return backfill.InFlight(ctx, db, max(limit, 1))
}

// renderPasses writes the passes in flight after the page of runs.
func renderPasses(w io.Writer, ps []backfill.Pass) error {
	if len(ps) == 0 {
		return nil
	}
	if _, err := fmt.Fprintln(w, "\nbackfill passes in flight:"); err != nil {
		return err
	}
	for _, p := range ps {
		if _, err := fmt.Fprintln(w, passLine(p)); err != nil {
			return err
		}
	}
	return nil
}

// runPass answers the ledger row of the run, when the run is a backfill
// pass (nil otherwise).
func runPass(ctx context.Context, db pipeline.DB, d *pipeline.RunDetail) (*backfill.Pass, error) {
	p, err := backfill.Show(ctx, db, d.RunID)
	if errors.Is(err, errcode.BackfillNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &p, nil
}
