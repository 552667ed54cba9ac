package exportrows

import (
	"context"
	"fmt"

	"github.com/pipekit/pipe/pipeline"
)

// runRange is a child run of a parallel export: it reads its range's
// keyset pages, all in its parent's snapshot (held for the attempt, as a
// snapshot export holds its own), into parts named for the range in the
// parent's directory, and answers them; the parent writes the manifest.
// A killed child resumes at its last checkpointed key, in the same
// snapshot while its parent holds it.
func (ex *exporter[In]) runRange(ctx context.Context, r *pipeline.Run[In], rg *Range) (Result, error) {
	a, err := ex.openParallel(ctx, r)
	if err != nil {
		return Result{}, err
	}
	defer a.close()
	parts, cur, err := a.pages(ctx, cursor{After: rg.After})
	if err != nil {
		return Result{}, err
	}
	return Result{Rows: cur.Rows, Parts: cur.Parts, Bytes: cur.Bytes, Bucket: a.bucket.URL(), Objects: parts}, nil
}

// rangeTag names a child's parts: part-RRRRR-NNNNN, the range then the
// page, so that the parts' names sort in key order.
func rangeTag(rg *Range) string {
	if rg == nil {
		return ""
	}
	return fmt.Sprintf("%05d-", rg.Index)
}

// sweepPrefix is what an attempt sweeps of the directory: a child sweeps
// only its own parts' temporary files, its siblings writing beside it.
func (a *attempt[In]) sweepPrefix() string {
	if a.rng == nil {
		return ""
	}
	return "part-" + rangeTag(a.rng)
}

// openParallel opens an attempt of a parallel export's parent or range and
// plans it, refusing what a parallel export cannot read; the caller closes
// it.
func (ex *exporter[In]) openParallel(ctx context.Context, r *pipeline.Run[In]) (*attempt[In], error) {
	a, err := ex.open(ctx, r)
	if err != nil {
		return nil, err
	}
	if err := a.planStep(ctx); err != nil {
		a.close()
		return nil, err
	}
	if err := a.checkParallel(); err != nil {
		a.close()
		return nil, err
	}
	return a, nil
}
