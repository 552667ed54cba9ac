package importrows

import (
	"context"
	"fmt"

	"github.com/pipekit/pipe/pipeline"
)

// New declares an import job: each run reads the file its input names, a
// page per step, into a table (Into) or an app function (Handle). The job is
// a [pipeline.Job] like any other: enqueue it in a transaction, retry it,
// see it in `pipe jobs show`. key answers a run's idempotency key from its
// input, a required argument as in [pipeline.NewJob]: while a run of the
// same key is live, an enqueue answers it.
func New[In any](key func(In) string, o Options[In]) (*pipeline.Job[In, Result], error) {
	if err := refuseParallel(o.Name, o.Parallel); err != nil {
		return nil, err
	}
	im, err := newImporter(key, o)
	if err != nil {
		return nil, err
	}
	return pipeline.NewJob(im.o.Name, key, im.run, im.o.Job)
}

// newImporter answers the import o declares, its defaults filled in.
func newImporter[In any](key func(In) string, o Options[In]) (*importer[In], error) {
	o, err := o.withDefaults(key)
	if err != nil {
		return nil, err
	}
	return &importer[In]{o: o}, nil
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

// importer is one declared import; run is its body.
type importer[In any] struct {
	o Options[In]
	// ranges is the range job of a parallel import (nil: declared by New,
	// every run reads its whole file).
	ranges *pipeline.Job[RangeRun[In], Result]
}

// run plans the import, then works the pages until the file ends. Each page
// is one step; a resumed run replays the pages it finished and goes on from
// the next checkpoint.
func (im *importer[In]) run(ctx context.Context, r *pipeline.Run[In]) (Result, error) {
	a, err := im.open(ctx, r, nil)
	if err != nil {
		return Result{}, err
	}
	defer a.close()
	if err := a.planStep(ctx); err != nil {
		return Result{}, err
	}
	if res, ok, err := a.parallel(ctx); ok || err != nil {
		return res, err
	}
	cur, pages, err := a.pages(ctx, cursor{Offset: a.plan.Start, Line: a.plan.Line})
	if err != nil {
		return Result{}, err
	}
	return Result{Rows: cur.Rows, Refused: cur.Refused, BareQuotes: cur.BareQuotes, Bytes: a.bytesRead(cur), Pages: pages, ErrorBucket: a.errs.URL(), ErrorPrefix: a.errorPrefix() + "/"}, nil
}

// pages works the pages from cur until the file (or the range) ends and
// answers the last checkpoint and how many pages there were.
func (a *attempt[In]) pages(ctx context.Context, cur cursor) (cursor, int, error) {
	var err error
	page := 0
	for ; !cur.Done; page++ {
		if cur, err = a.pageStep(ctx, page, cur); err != nil {
			return cur, page, err
		}
		if err := pipeline.Progress(ctx, cur.Offset, a.progressTotal(), progressNote(cur)); err != nil {
			return cur, page, err
		}
	}
	return cur, page, nil
}

// cursor is a page step's checkpoint: where the next page begins and the
// run's totals so far. It never holds rows.
type cursor struct {
	Offset  int64 `json:"offset"` // the next byte, or the next row group
	Line    int64 `json:"line"`   // the next record's line (row number for Parquet)
	Rows    int64 `json:"rows"`
	Refused int64 `json:"refused"`
	// BareQuotes counts the refused records whose fault is a quote inside
	// an unquoted field (split.RuleBareQuote).
	BareQuotes int64 `json:"bareQuotes,omitempty"`
	Done       bool  `json:"done,omitempty"`
	// Staged: a key conflicted, so pages go through the staging table.
	Staged bool `json:"staged,omitempty"`
}

func pageName(page int) string { return fmt.Sprintf("page-%05d", page) }

// progressNote is the run's progress note: rows so far.
func progressNote(c cursor) string {
	return fmt.Sprintf("%d rows written, %d refused", c.Rows, c.Refused)
}
