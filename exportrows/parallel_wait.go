package exportrows

import (
	"context"
	"encoding/json"
	"time"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// The parent's wait for its children: it looks at them every waitFirst at
// first, then less often, up to every waitMost.
const (
	waitFirst = 10 * time.Millisecond
	waitMost  = time.Second
)

// awaitRanges waits, holding the snapshot, until every child is done, and
// answers their parts in key order and the totals. A child that ends
// otherwise fails the parent with its code; a snapshot lost or outlived
// fails it with X_EXPORT_SNAPSHOT_LOST. A parent resumed after its
// snapshot's connection ended (a crash) finds a snapshot other than its
// children's: it can only gather children that are all done.
func (a *attempt[In]) awaitRanges(ctx context.Context, fan fanout, snap *exportedSnapshot) ([]Part, cursor, error) {
	admin := pipeline.NewAdmin(pipeline.Pool(ctx))
	results := make([]*Result, len(fan.Children))
	deadline := time.Now().Add(a.ex.o.SnapshotLifetime)
	for wait := waitFirst; ; wait = min(2*wait, waitMost) {
		pending, err := a.gather(ctx, admin, fan, results)
		if err != nil {
			return nil, cursor{}, err
		}
		if pending == 0 {
			break
		}
		switch {
		case fan.Snapshot != snap.id:
			return nil, cursor{}, snapshotLost(a.plan.Name, "the run resumed after the connection holding its snapshot ended")
		case time.Now().After(deadline):
			return nil, cursor{}, snapshotLost(a.plan.Name, "the snapshot outlived its lifetime ("+a.ex.o.SnapshotLifetime.String()+")")
		}
		if err := snap.alive(ctx); err != nil {
			return nil, cursor{}, err
		}
		select {
		case <-ctx.Done():
			return nil, cursor{}, errcode.Postgres(ctx, context.Cause(ctx), "export "+a.plan.Name+": wait for the ranges")
		case <-time.After(wait):
		}
	}
	return collect(results)
}

// gather looks at every child not yet known done, fills its result, and
// answers how many are still live; a child that ended otherwise is an
// error.
func (a *attempt[In]) gather(ctx context.Context, admin *pipeline.Admin, fan fanout, results []*Result) (int, error) {
	pending := 0
	for i, id := range fan.Children {
		if results[i] != nil {
			continue
		}
		d, err := admin.Show(ctx, id)
		if err != nil && errcode.Unavailable(err) && ctx.Err() == nil {
			pending++ // the database went away a moment: look again
			continue
		}
		if err != nil {
			return 0, err
		}
		switch {
		case d.State == pipeline.StateDone:
			var r Result
			if err := json.Unmarshal(d.Result, &r); err != nil {
				return 0, errcode.Wrap(err, errcode.Invariant, "export %s: range %d's result does not decode", a.plan.Name, i+1)
			}
			results[i] = &r
		case d.State.Live():
			pending++
		default:
			return 0, rangeFailed(a.plan.Name, i, len(fan.Children), d)
		}
	}
	return pending, nil
}

// collect answers the children's parts in key order and their totals.
func collect(results []*Result) ([]Part, cursor, error) {
	var parts []Part
	var cur cursor
	for _, r := range results {
		parts = append(parts, r.Objects...)
		cur.Rows, cur.Parts, cur.Bytes = cur.Rows+r.Rows, cur.Parts+r.Parts, cur.Bytes+r.Bytes
	}
	cur.Done = true
	return parts, cur, nil
}

// rangeFailed is the parent's error for a child that ended other than
// done: the child's code, terminal.
func rangeFailed(name string, i, of int, d *pipeline.RunDetail) error {
	code := errcode.ExportSourceInvalid
	if d.LastError != nil && d.LastError.Code != "" {
		code = errcode.Code(d.LastError.Code)
	}
	if code == errcode.ExportSnapshotLost {
		return snapshotLost(name, "a range could not read the snapshot")
	}
	return errcode.New(code, "export %s: range %d of %d ended %s (run %s)", name, i+1, of, d.State, d.ID).
		WithFix("see the range's run: pipe jobs show " + d.ID)
}

// snapshotLost is X_EXPORT_SNAPSHOT_LOST: why says how.
func snapshotLost(name, why string) error {
	return errcode.New(errcode.ExportSnapshotLost, "export %s: the export's snapshot is lost: %s", name, why).
		WithFix("export again; keep the worker running the parent (its connection holds the snapshot) up until the ranges finish, or raise SnapshotLifetime")
}
