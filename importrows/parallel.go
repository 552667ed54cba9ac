package importrows

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/importrows/internal/split"
	"github.com/pipekit/pipe/pipeline"
)

// A parallel import (Options.Parallel over 1) splits its file into ranges
// and imports each in a child run of the range job, <Name>.range, which
// any worker may claim; the parent run waits for its children and answers
// one result:
//
//   - The parent's "ranges" step cuts the file where the sequential read
//     finds a record start (split.Cuts: the splitter itself, a chunk at a
//     time, so a line end inside quotes cannot mislead it), each start with
//     its line; a Parquet file is cut between row groups.
//   - Its "ranges-enqueue" step enqueues one child per range in the step's
//     own transaction, so a replayed parent never enqueues twice (and each
//     child's key, <parent run id>/<range>, is the same every time).
//   - Each child reads its range as the sequential run reads the file: a
//     page a step, its checkpoints byte offsets, its line numbers the
//     file's; a killed child resumes its range. Its refused rows go to
//     <Prefix>/<parent run id>/range-NNNNN/errors-NNNNN.ndjson: one report
//     under the parent's run, its parts in file order.
//   - The parent looks at its children in a step, then waits for a range's
//     done event (pipeline.WaitForEvent, a timeout as the backstop) before
//     it looks again: a waiting run frees its worker's slot for the
//     children, where a polling one would hold it.
//   - Without a key, each child COPYs into the table. With a key, each
//     child COPYs into a staging table of its own, every row with its line;
//     once all are done the parent upserts the ranges in file order, the
//     last occurrence of a key in each range (DISTINCT ON key, line
//     descending) after those of the ranges before: the last occurrence in
//     the file wins, as in the sequential import.

// RangeRun is the input of a range run: one range of a parallel import's
// file, enqueued by its parent run. It is built by the parent, never by
// hand.
type RangeRun[In any] struct {
	// Parent is the parent's run id; Index the range's place in the file.
	Parent string `json:"parent"`
	Index  int    `json:"index"`
	// Input is the parent's input.
	Input In `json:"input"`
	// Start is the range's first record (for Parquet, its first row group
	// and that group's first row number); End where it ends.
	Start split.Mark `json:"start"`
	End   int64      `json:"end"`
	// Plan is the parent's plan: every range reads the same version of the
	// file the same way.
	Plan plan `json:"plan"`
	// Stage is the range's staging table, quoted ("" with no key: the rows
	// go to the table).
	Stage string `json:"stage,omitempty"`
}

func (r RangeRun[In]) key() string { return fmt.Sprintf("%s/%05d", r.Parent, r.Index) }

// Jobs are a parallel import's two jobs: the import itself and the range
// job its runs enqueue. A worker that runs the import must register both.
type Jobs[In any] struct {
	Import *pipeline.Job[In, Result]
	Ranges *pipeline.Job[RangeRun[In], Result]
}

// All answers both jobs, to register.
func (j Jobs[In]) All() []pipeline.Registrable {
	return []pipeline.Registrable{j.Import, j.Ranges}
}

// NewJobs declares an import as [New] does, with the range job a parallel
// import's runs enqueue (named <Name>.range, in the same queue, with the
// same retry policy and timeouts). A run whose Parallel is over 1 imports a
// large file by ranges.
func NewJobs[In any](key func(In) string, o Options[In]) (Jobs[In], error) {
	im, err := newImporter(key, o)
	if err != nil {
		return Jobs[In]{}, err
	}
	if im.ranges, err = pipeline.NewJob(im.o.Name+".range", RangeRun[In].key, im.rangeRun, im.rangeOptions()); err != nil {
		return Jobs[In]{}, err
	}
	imp, err := pipeline.NewJob(im.o.Name, key, im.run, im.o.Job)
	if err != nil {
		return Jobs[In]{}, err
	}
	return Jobs[In]{Import: imp, Ranges: im.ranges}, nil
}

// rangeOptions are the range job's options: the import's queue, retry and
// timeouts, and its tenant.
func (im *importer[In]) rangeOptions() pipeline.JobOptions[RangeRun[In], Result] {
	j := im.o.Job
	o := pipeline.JobOptions[RangeRun[In], Result]{Queue: j.Queue, Retry: j.Retry, Timeout: j.Timeout,
		StepTimeout: j.StepTimeout, Sensitive: j.Sensitive}
	if j.Tenant != nil {
		o.Tenant = func(r RangeRun[In]) string { return j.Tenant(r.Input) }
	}
	return o
}

// refuseParallel refuses a declared Parallel where no range job was
// declared with it.
func refuseParallel(name string, parallel int) error {
	if parallel <= 1 {
		return nil
	}
	return errcode.New(errcode.JobDeclarationInvalid, "import %s: Parallel needs the range job", name).
		WithFix("declare the import with importrows.NewJobs and register both of its jobs")
}

// rangeRun is the range job's body: the sequential import's page loop over
// one range, with the parent's plan.
func (im *importer[In]) rangeRun(ctx context.Context, r *pipeline.Run[RangeRun[In]]) (Result, error) {
	in := r.Input
	pr := &pipeline.Run[In]{ID: r.ID, RunID: r.RunID, Name: r.Name, Queue: r.Queue, Tenant: r.Tenant, Input: in.Input,
		Attempt: r.Attempt, MaxAttempts: r.MaxAttempts, FinalAttempt: r.FinalAttempt}
	a, err := im.open(ctx, pr, &in)
	if err != nil {
		return Result{}, err
	}
	defer a.close()
	a.plan = in.Plan
	if in.Stage != "" {
		a.plan.Key = nil // a plain COPY into the staging table
	}
	if err := a.prepare(ctx); err != nil {
		return Result{}, err
	}
	cur, pages, err := a.pages(ctx, cursor{Offset: in.Start.Off, Line: in.Start.Line})
	if err != nil {
		return Result{}, err
	}
	res := Result{Rows: cur.Rows, Refused: cur.Refused, BareQuotes: cur.BareQuotes, Bytes: a.bytesRead(cur) - in.Start.Off, Pages: pages,
		ErrorBucket: a.errs.URL(), ErrorPrefix: a.errorPrefix() + "/"}
	return pipeline.StepTx(ctx, rangeDoneStep, func(ctx context.Context, tx pgx.Tx) (Result, error) {
		_, err := pipeline.PublishEvent(ctx, tx, rangesEvent, rangeDone{Parent: in.Parent, Index: in.Index})
		return res, err
	})
}

// rangeDoneStep is a range run's last step: its result, stored with the
// event that wakes its parent.
const rangeDoneStep = "range-done"

// rangesEvent is the event a range run publishes when its rows are written:
// its parent waits for it between its looks.
const rangesEvent = "pipe.import.range.done"

type rangeDone struct {
	Parent string `json:"parent"`
	Index  int    `json:"index"`
}

func rangeName(i int) string { return fmt.Sprintf("range-%05d", i) }
