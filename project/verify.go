package project

import (
	"context"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// Finding is what the live catalog says of one declaration.
type Finding struct {
	// Kind is "rollup", "view", "backfill" or "outbox"; Name the
	// declaration's (the outbox relay's name).
	Kind string `json:"kind"`
	Name string `json:"name"`
	// Err is the declaration's coded fault (X_JOB_ROLLUP_INVALID,
	// X_JOB_REFRESH_VIEW_INVALID), or nil when the catalog holds what it
	// needs.
	Err error `json:"-"`
}

// Verify checks every declaration against the catalog db reaches — the
// check a worker makes when it starts — and answers one finding a
// declaration, in file order. The error is a failure to ask (the database
// unreachable), never a fault of a declaration.
func (p *Project) Verify(ctx context.Context, db pipeline.DB) ([]Finding, error) {
	out := make([]Finding, 0, len(p.Declarations))
	for _, d := range p.Declarations {
		f := Finding{Kind: d.Kind, Name: d.Name, Err: d.Verify(ctx, db)}
		if f.Err != nil && (ctx.Err() != nil || errcode.CodeOf(f.Err) == "") {
			return nil, f.Err // the database did not answer: no finding
		}
		out = append(out, f)
	}
	if p.Relay != nil {
		f := Finding{Kind: "outbox", Name: p.Relay.Name(), Err: p.verifyOutbox(ctx, db)}
		if f.Err != nil && ctx.Err() != nil {
			return nil, f.Err
		}
		out = append(out, f)
	}
	return out, nil
}

// inFileKeys answers a fault of the declaration naming the file's keys
// (rollups[0].bucket.column), not the Go fields; nil for nil.
func (d Declaration) inFileKeys(err error) error {
	if err == nil || d.at == "" {
		return err
	}
	label := "rollup " + d.Name + ": "
	switch d.Kind {
	case "view":
		label = "refresh " + d.Name + ": "
	case "backfill":
		label = "backfill " + d.Name + ": "
	}
	return inFileKeys(err, d.at, label)
}

// Verify checks the declaration against the catalog db reaches, as a
// worker does when it starts, its faults naming the file's keys: what
// `pipe rollup run` and `pipe views refresh NAME` ask before they enqueue.
func (d Declaration) Verify(ctx context.Context, db pipeline.DB) error {
	reg, err := pipeline.NewRegistry(d.Job)
	if err != nil {
		return err
	}
	return d.inFileKeys(reg.Verify(ctx, db))
}
