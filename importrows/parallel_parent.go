package importrows

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/importrows/internal/split"
	"github.com/pipekit/pipe/pipeline"
)

// parallel imports the file by ranges when the run asks for it and the file
// is large enough; ok is false when the run reads the file itself.
func (a *attempt[In]) parallel(ctx context.Context) (Result, bool, error) {
	n := a.rangesWanted()
	if n < 2 {
		return Result{}, false, nil
	}
	marks, err := pipeline.Step(ctx, "ranges", func(ctx context.Context) ([]split.Mark, error) {
		return a.cut(ctx, n)
	})
	if err != nil || len(marks) < 2 {
		return Result{}, false, err
	}
	ids, err := pipeline.StepTx(ctx, "ranges-enqueue", func(ctx context.Context, tx pgx.Tx) ([]string, error) {
		ids, err := a.enqueueRanges(ctx, tx, marks)
		return ids, errcode.Redact(ctx, err, "import: enqueue the ranges")
	})
	if err != nil {
		return Result{}, true, err
	}
	sum, failed, err := a.await(ctx, ids)
	if err != nil {
		return Result{}, true, err
	}
	if failed == nil && sum.Refused > a.maxRowErrors() {
		failed = errTooManyErrors(a.maxRowErrors(), sum.BareQuotes)
	}
	if failed != nil {
		cancelRanges(ctx, ids)
		a.dropStages(ctx, len(marks))
		return Result{}, true, failed
	}
	if err := a.mergeRanges(ctx, len(marks)); err != nil {
		return Result{}, true, err
	}
	return Result{Rows: sum.Rows, Refused: sum.Refused, BareQuotes: sum.BareQuotes, Bytes: a.plan.Size, Pages: sum.Pages,
		ErrorBucket: a.errs.URL(), ErrorPrefix: a.errorPrefix() + "/"}, true, nil
}

// rangesWanted answers how many ranges the run's file is cut into: at most
// Parallel, each of at least RangeBytes (a Parquet file: at most one a row
// group); 1 when the import was declared without its range job, writes to
// a Handle, or reads a stream (compressed or re-encoded text is read from
// its start).
func (a *attempt[In]) rangesWanted() int {
	if a.im.ranges == nil || a.im.o.Into == nil || a.lim.Parallel < 2 || a.plan.Stream {
		return 1
	}
	rangeBytes := a.lim.RangeBytes
	if rangeBytes <= 0 {
		rangeBytes = DefaultRangeBytes
	}
	n := int(min(int64(a.lim.Parallel), (a.plan.Size-a.plan.Start)/rangeBytes))
	if a.plan.Format == Parquet {
		n = min(n, a.plan.RowGroups)
	}
	return n
}

// cut answers the starts of n ranges of about equal size.
func (a *attempt[In]) cut(ctx context.Context, n int) ([]split.Mark, error) {
	if a.plan.Format == Parquet {
		return a.cutGroups(n), nil
	}
	from := split.Mark{Off: a.plan.Start, Line: a.plan.Line}
	every := max(1, (a.plan.Size-a.plan.Start)/int64(n))
	read := func(off int64, size int) ([]byte, bool, error) { return a.text.read(ctx, off, size) }
	if err := a.text.check(ctx); err != nil {
		return nil, err
	}
	sp := a.splitter()
	return sp.Cuts(read, from, every, a.readChunk())
}

// cutGroups answers the first row group of n ranges of row groups, each
// with its first row's number.
func (a *attempt[In]) cutGroups(n int) []split.Mark {
	groups := a.plan.RowGroups
	var marks []split.Mark
	line := a.plan.Line
	for g, next := 0, 0; g < groups; g++ {
		if g == next*groups/n {
			marks = append(marks, split.Mark{Off: int64(g), Line: line})
			next++
		}
		line += a.pq.f.NumRows(g)
	}
	return marks
}

// enqueueRanges makes the staging tables (with a key) and enqueues one
// range run per range, in the step's transaction; it answers their ids.
func (a *attempt[In]) enqueueRanges(ctx context.Context, tx pgx.Tx, marks []split.Mark) ([]string, error) {
	end := a.plan.Size
	if a.plan.Format == Parquet {
		end = int64(a.plan.RowGroups)
	}
	ins := make([]RangeRun[In], len(marks))
	for i, m := range marks {
		ins[i] = RangeRun[In]{Parent: a.run.RunID, Index: i, Input: a.run.Input, Start: m, End: end, Plan: a.plan}
		if i+1 < len(marks) {
			ins[i].End = marks[i+1].Off
		}
		if len(a.plan.Key) > 0 {
			ins[i].Stage = a.stageName(i)
			if err := a.createStage(ctx, tx, ins[i].Stage); err != nil {
				return nil, err
			}
		}
	}
	res, err := a.im.ranges.EnqueueMany(ctx, tx, ins, pipeline.EnqueueOptions{Tenant: a.run.Tenant})
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(res))
	for i, r := range res {
		ids[i] = r.ID
	}
	return ids, nil
}

// rangesLook is what one look at the range runs saw: how many are done and
// their results summed, or the first that ended without a result.
type rangesLook struct {
	Done   int    `json:"done"`
	Sum    Result `json:"sum"`
	Failed int    `json:"failed,omitempty"` // the failed range + 1
	State  string `json:"state,omitempty"`
	Code   string `json:"code,omitempty"`
}

// await looks at the range runs until every one is done and answers their
// results summed. Between looks it waits for a range's done event, or 1 s
// doubling to 16 s when none comes (an event published while it looked is
// not seen by the next wait: the timeout is the backstop).
// A range run that failed, was dead-lettered or cancelled is answered as
// failed: the parent's failure, with the range's code. err is anything
// else, a suspension among them.
func (a *attempt[In]) await(ctx context.Context, ids []string) (sum Result, failed, err error) {
	wait := time.Second
	for look := 0; ; look++ {
		l, serr := pipeline.Step(ctx, fmt.Sprintf("ranges-look-%05d", look), func(ctx context.Context) (rangesLook, error) {
			l, err := lookAt(ctx, ids)
			return l, errcode.Redact(ctx, err, "import: look at the ranges")
		})
		if serr != nil {
			return Result{}, nil, serr
		}
		if l.Failed > 0 {
			return Result{}, rangeFailed(l, len(ids)), nil
		}
		note := fmt.Sprintf("%d of %d ranges done, %d rows written, %d refused", l.Done, len(ids), l.Sum.Rows, l.Sum.Refused)
		if err := pipeline.Progress(ctx, int64(l.Done), int64(len(ids)), note); err != nil {
			return Result{}, nil, err
		}
		if l.Done == len(ids) {
			return l.Sum, nil, nil
		}
		match := map[string]string{"parent": a.run.RunID}
		if _, _, err := pipeline.WaitForEvent[rangeDone](ctx, fmt.Sprintf("ranges-wait-%05d", look), rangesEvent, match, wait); err != nil {
			return Result{}, nil, err
		}
		wait = min(2*wait, 16*time.Second)
	}
}

// lookAt reads the range runs' states and the done ones' results.
func lookAt(ctx context.Context, ids []string) (rangesLook, error) {
	admin := pipeline.NewAdmin(pipeline.Pool(ctx))
	var l rangesLook
	for i, id := range ids {
		d, err := admin.Show(ctx, id)
		if err != nil {
			return l, err
		}
		raw, done := rangeResult(d)
		switch {
		case done:
			var r Result
			if err := json.Unmarshal(raw, &r); err != nil {
				return l, errcode.Wrap(err, errcode.Invariant, "import: the result of range %d does not decode", i)
			}
			l.Done++
			l.Sum.Rows, l.Sum.Refused, l.Sum.Bytes, l.Sum.Pages = l.Sum.Rows+r.Rows, l.Sum.Refused+r.Refused, l.Sum.Bytes+r.Bytes, l.Sum.Pages+r.Pages
			l.Sum.BareQuotes += r.BareQuotes
		case d.State.Finished():
			l.Failed, l.State = i+1, string(d.State)
			if d.LastError != nil {
				l.Code = d.LastError.Code
			}
			return l, nil
		}
	}
	return l, nil
}

// cancelRanges cancels the range runs still live once the import has
// failed, as far as it can: their rows can no longer make the import's.
func cancelRanges(ctx context.Context, ids []string) {
	admin := pipeline.NewAdmin(pipeline.Pool(ctx))
	for _, id := range ids {
		if d, err := admin.Show(ctx, id); err == nil && d.State.Live() {
			_ = admin.Cancel(ctx, id, "the parallel import failed")
		}
	}
}

// rangeResult answers a range run's result once its rows are written: its
// last step's output, committed with the event that woke the parent
// (perhaps before the run itself has settled done).
func rangeResult(d *pipeline.RunDetail) (json.RawMessage, bool) {
	if d.State == pipeline.StateDone {
		return d.Result, true
	}
	for _, s := range d.Steps {
		if s.Name == rangeDoneStep && s.State == pipeline.StepCompleted {
			return s.Output, true
		}
	}
	return nil, false
}

// rangeFailed is the parent's failure for a range run that ended without a
// result: the range's own code (X_JOB_CANCELLED for a cancelled one
// without one).
func rangeFailed(l rangesLook, n int) error {
	code := errcode.Code(l.Code)
	if code == "" {
		code = errcode.JobCancelled
	}
	return errcode.New(code, "import: range %d of %d ended %s", l.Failed-1, n, l.State).
		WithFix("see the range's run (pipe jobs list --name <import>.range) for its error, fix it and import again").
		WithMeta("range", fmt.Sprint(l.Failed-1))
}
