package subject

import (
	"context"
	"strings"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// keyFault refuses a person's key the root's key cannot take: another
// number of values than it has columns, or a value a column's type refuses
// (the server casts each, as the erase's statements do), X_JOB_INPUT_INVALID
// without the value. An erase's first step and [Request.Plan] both ask it.
func (g *graph) keyFault(ctx context.Context, q Querier, key []string) error {
	root := g.root.t.Name
	if len(key) != len(g.key) {
		return errcode.New(errcode.JobInputInvalid, "subject %s: the person's key has %d values for a key of %d columns", root, len(key), len(g.key)).
			WithFix("answer one value per key column, in the key's order")
	}
	casts := make([]string, len(key))
	for i, t := range g.keyTypes(g.root.t, g.key) {
		casts[i] = "$" + itoa(int64(i+1)) + "::text::" + t + " is null"
	}
	args := make([]any, len(key))
	for i, k := range key {
		args[i] = k
	}
	var discard []bool
	err := q.QueryRow(ctx, "select array["+strings.Join(casts, ", ")+"]", args...).Scan(&discard)
	return statementErr(err, "the key", root)
}

// Plan plans the request's declaration against the live catalog, as a run
// does first, and checks the person's key against the root's key: what
// `pipe subject erase` and `export` refuse before they enqueue, so that a
// refused request leaves no run behind. The refusals are [NewPlan]'s, and
// X_JOB_INPUT_INVALID for the request ([Request.Check]) or the key.
func (in Request) Plan(ctx context.Context, db pipeline.DB) (*Plan, error) {
	if err := in.Check(); err != nil {
		return nil, err
	}
	tx, err := db.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	ex := &eraser{decl: in.Subject}
	g, err := ex.graphIn(ctx, tx)
	if err != nil {
		return nil, err
	}
	if err := g.keyFault(ctx, tx, in.Key); err != nil {
		return nil, err
	}
	return g.plan(), nil
}
