package exportrows

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// DefaultSnapshotLifetime is the default of [Options].SnapshotLifetime.
const DefaultSnapshotLifetime = 6 * time.Hour

// MaxParallel bounds how many ranges one parallel export splits into.
const MaxParallel = 64

// Range is what a child run of a parallel export reads: the keys after
// After (none: from the first) through Through (none: to the last), in the
// snapshot its parent exported, into parts named for its Index in the
// parent's directory Dir.
type Range struct {
	Parent   string   `json:"parent"` // the parent's run id
	Index    int      `json:"index"`
	Of       int      `json:"of"`
	After    []string `json:"after,omitempty"`
	Through  []string `json:"through,omitempty"`
	Snapshot string   `json:"snapshot"`
	Dir      string   `json:"dir"`
}

// fanout is the parent's "ranges" step: the snapshot its children read in
// and their jobs' ids, in key order.
type fanout struct {
	Snapshot string   `json:"snapshot"`
	Children []string `json:"children"`
}

// parallelOf answers how many ranges the run of in asks for; 1 for a child.
func (ex *exporter[In]) parallelOf(in In) int {
	if ex.o.Parallel == nil || ex.rangeOf(in) != nil {
		return 1
	}
	return ex.o.Parallel(in)
}

func (ex *exporter[In]) rangeOf(in In) *Range {
	if ex.o.RangeOf == nil {
		return nil
	}
	return ex.o.RangeOf(in)
}

// rangedKey answers a child run's idempotency key: its parent's input's
// key with the range and the parent run named, so that no two children,
// and no child and its parent, dedupe.
func rangedKey[In any](key func(In) string, rangeOf func(In) *Range) func(In) string {
	if rangeOf == nil {
		return key
	}
	return func(in In) string {
		r := rangeOf(in)
		if r == nil {
			return key(in)
		}
		return key(in) + " range " + strconv.Itoa(r.Index+1) + "/" + strconv.Itoa(r.Of) + " of " + r.Parent
	}
}

// runParallel is a parallel export's parent: it plans, exports a snapshot
// on a connection of its own, plans the key ranges and enqueues one child
// per range in one step, waits for the children while it holds the
// snapshot, and writes the manifest of their parts in key order.
func (ex *exporter[In]) runParallel(ctx context.Context, r *pipeline.Run[In], n int) (Result, error) {
	if n > MaxParallel {
		return Result{}, errcode.New(errcode.JobInputInvalid, "export: %d ranges asked for; at most %d", n, MaxParallel).
			WithFix(fmt.Sprintf("ask for 2 to %d ranges", MaxParallel))
	}
	a, err := ex.openParallel(ctx, r)
	if err != nil {
		return Result{}, err
	}
	defer a.close()
	snap, err := exportSnapshot(ctx, a.plan.Name)
	if err != nil {
		return Result{}, err
	}
	defer snap.close()
	fan, err := pipeline.StepTx(ctx, "ranges", func(ctx context.Context, tx pgx.Tx) (fanout, error) {
		return a.fanOut(ctx, tx, n, snap.id)
	})
	if err != nil {
		return Result{}, err
	}
	a.ranges = len(fan.Children)
	parts, cur, err := a.awaitRanges(ctx, fan, snap)
	if err != nil {
		cancelRanges(fan, pipeline.Pool(ctx), err)
		return Result{}, err
	}
	key, err := a.manifestStep(ctx, parts, cur)
	if err != nil {
		return Result{}, err
	}
	return Result{Rows: cur.Rows, Parts: cur.Parts, Bytes: cur.Bytes, Bucket: a.bucket.URL(), Manifest: key}, nil
}

// checkParallel refuses what a parallel export cannot read: a query
// (nothing to sample), a snapshot-order export (it is one snapshot
// already), a replica (a standby cannot take the primary's snapshot).
func (a *attempt[In]) checkParallel() error {
	why := ""
	switch {
	case a.plan.Query:
		why = "a parallel export reads a table's key ranges, not a query"
	case a.plan.Snapshot:
		why = "a parallel export reads in key order; snapshot order reads one snapshot on one connection"
	case a.ex.o.Replica != nil:
		why = "a parallel export's children read the snapshot of the job's database, not a replica's"
	}
	if why == "" {
		return nil
	}
	return errcode.New(errcode.JobInputInvalid, "export %s: %s", a.plan.Name, why).
		WithFix("export a table in key order on the job's database, or export without parallel")
}

// fanOut plans the ranges and enqueues one child per range, in the step's
// transaction: a replayed parent finds the step done and enqueues none.
func (a *attempt[In]) fanOut(ctx context.Context, tx pgx.Tx, n int, snapshot string) (fanout, error) {
	bounds, err := a.rangeBounds(ctx, tx, n)
	if err != nil {
		return fanout{}, sourceErr(ctx, err, a.src.label()+" ranges")
	}
	ins := make([]In, len(bounds)+1)
	for i := range ins {
		rg := &Range{Parent: a.run.RunID, Index: i, Of: len(ins), Snapshot: snapshot, Dir: a.plan.Dir}
		if i > 0 {
			rg.After = bounds[i-1]
		}
		if i < len(bounds) {
			rg.Through = bounds[i]
		}
		ins[i] = a.ex.o.WithRange(a.run.Input, rg)
	}
	res, err := a.ex.job.EnqueueMany(ctx, tx, ins)
	if err != nil {
		return fanout{}, err
	}
	f := fanout{Snapshot: snapshot}
	for _, r := range res {
		f.Children = append(f.Children, r.ID)
	}
	return f, nil
}

// cancelRanges cancels the children still live when their parent fails:
// without it they would write parts no manifest will list. Best effort: a
// child that settled meanwhile is not cancellable, and that is fine.
func cancelRanges(fan fanout, db pipeline.DB, why error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	admin := pipeline.NewAdmin(db)
	for _, id := range fan.Children {
		_ = admin.Cancel(ctx, id, "the parallel export failed: "+string(errcode.CodeOf(why)))
	}
}
