package exportrows

import (
	"context"
	"fmt"

	"github.com/pipekit/pipe/pipeline"
)

// New declares an export job: each run reads the source its input names, a
// keyset page per step, into one object per page and a manifest last. The
// job is a [pipeline.Job] like any other: enqueue it in a transaction, retry
// it, see it in `pipe jobs show`. key answers a run's idempotency key from
// its input, a required argument as in [pipeline.NewJob]: while a run of
// the same key is live, an enqueue answers it.
func New[In any](key func(In) string, o Options[In]) (*pipeline.Job[In, Result], error) {
	ex, err := newExporter(key, o)
	if err != nil {
		return nil, err
	}
	ex.job, err = pipeline.NewJob(ex.o.Name, rangedKey(key, ex.o.RangeOf), ex.run, ex.o.Job)
	return ex.job, err
}

// newExporter answers the export o declares, its defaults filled in.
func newExporter[In any](key func(In) string, o Options[In]) (*exporter[In], error) {
	o, err := o.withDefaults(key)
	if err != nil {
		return nil, err
	}
	return &exporter[In]{o: o}, nil
}

// MustNew is [New] that panics on a bad declaration, for package-level
// variables.
func MustNew[In any](key func(In) string, o Options[In]) *pipeline.Job[In, Result] {
	j, err := New(key, o)
	if err != nil {
		panic(err)
	}
	return j
}

// exporter is one declared export; run is its body.
type exporter[In any] struct {
	o   Options[In]
	job *pipeline.Job[In, Result] // the job, to enqueue a parallel export's ranges
}

// run plans the export, works the pages until one comes back short, then
// writes the manifest. Each page is one step; a resumed run replays the
// pages it finished and goes on after the last checkpointed key.
func (ex *exporter[In]) run(ctx context.Context, r *pipeline.Run[In]) (Result, error) {
	if rg := ex.rangeOf(r.Input); rg != nil {
		return ex.runRange(ctx, r, rg)
	}
	if n := ex.parallelOf(r.Input); n > 1 {
		return ex.runParallel(ctx, r, n)
	}
	a, err := ex.open(ctx, r)
	if err != nil {
		return Result{}, err
	}
	defer a.close()
	if err := a.planStep(ctx); err != nil {
		return Result{}, err
	}
	parts, cur, err := a.pages(ctx, cursor{})
	if err != nil {
		return Result{}, err
	}
	key, err := a.manifestStep(ctx, parts, cur)
	if err != nil {
		return Result{}, err
	}
	return Result{Rows: cur.Rows, Parts: cur.Parts, Bytes: cur.Bytes, Bucket: a.bucket.URL(), Manifest: key}, nil
}

// pages reads the export a page step at a time from cur until none is
// left, reporting progress after each, and answers the parts written and
// the last checkpoint.
func (a *attempt[In]) pages(ctx context.Context, cur cursor) ([]Part, cursor, error) {
	var parts []Part
	var err error
	for page := 0; !cur.Done; page++ {
		if cur, err = a.pageStep(ctx, page, cur); err != nil {
			return nil, cur, err
		}
		if cur.Part != nil {
			parts = append(parts, *cur.Part)
		}
		if err := pipeline.Progress(ctx, cur.Rows, 0, progressNote(cur)); err != nil {
			return nil, cur, err
		}
	}
	return parts, cur, nil
}

// cursor is a page step's checkpoint: the last key read and the run's
// totals so far, and the part the page wrote. It never holds rows.
type cursor struct {
	// After holds the text of the last key's values; nil before the first
	// page.
	After []string `json:"after,omitempty"`
	// Block is, for a snapshot export, the block the next page starts at;
	// Snapshot names the snapshot the last page was read in, and Snapshots
	// counts those the pages so far were read in.
	Block     int64  `json:"block,omitempty"`
	Snapshot  string `json:"snapshot,omitempty"`
	Snapshots int    `json:"snapshots,omitempty"`
	Rows      int64  `json:"rows"`
	Parts     int    `json:"parts"`
	Bytes     int64  `json:"bytes"`
	Done      bool   `json:"done,omitempty"`
	// Part is the object this page wrote; nil for an empty last page.
	Part *Part `json:"part,omitempty"`
}

func pageName(page int) string { return fmt.Sprintf("page-%05d", page) }

// progressNote is the run's progress note: what is written so far.
func progressNote(c cursor) string {
	return fmt.Sprintf("%d rows in %d parts, %d bytes", c.Rows, c.Parts, c.Bytes)
}
