package subject

import (
	"context"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
)

// refusal orders the walked graph's deletes and checks its treatments, and
// answers why the declaration cannot be carried out, or nil: the
// declaration's own faults first (X_SUBJECT_TREATMENT_INVALID, naming
// every fault, a loop with no key to clear among them), and loops alone as
// X_SUBJECT_CYCLE. `pipe subject plan`, `erase` and `export`, and a run's
// first step, all answer through here, so they refuse a file the same way.
func (g *graph) refusal(ctx context.Context, tx pgx.Tx) error {
	stuck := g.breakLoops()
	faults, err := g.validate(ctx, tx)
	switch {
	case err != nil:
		return err
	case len(faults) > 0:
		return invalid(g.root.t.Name, append(faults, stuck...))
	case len(stuck) > 0:
		return errcode.New(errcode.SubjectCycle, "subject %s: %s", g.root.t.Name, strings.Join(stuck, "; ")).
			WithFix("make one key of each loop nullable (or ON DELETE SET NULL) so that it can be cleared first, or treat a table of the loop as anonymize or retain")
	}
	return nil
}
