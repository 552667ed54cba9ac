package views

import (
	"context"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/internal/pgcatalog"
	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/pipeline"
)

// RefreshJobName is the durable name of [RefreshJob].
const RefreshJobName = "pipe.views.refresh"

// Refresh declares a refresh of one materialized view: each run refreshes
// it in one step (REFRESH MATERIALIZED VIEW [CONCURRENTLY], committed with
// the step). The catalog — a materialized view, with a unique index when
// Concurrently — is checked when a worker starts and by `pipe verify` (the
// job's Verify), and again by each run.
//
// A refresh takes no idempotency key function: its input, [Request], is
// empty and every run refreshes the one declared view, so the key is the
// constant "refresh" — a fire while the last refresh is live is that
// refresh.
func Refresh(o Options) (*pipeline.Job[Request, Result], error) {
	rel, faults := declFaults(o)
	if len(faults) > 0 {
		return nil, refusal(o.Name, faults)
	}
	jo := o.Job
	own := jo.Verify
	jo.Verify = func(ctx context.Context, db pipeline.DB) error {
		if err := verify(ctx, db, o.Name, rel, o.Concurrently); err != nil {
			return err
		}
		if own != nil {
			return own(ctx, db)
		}
		return nil
	}
	body := func(ctx context.Context, r *pipeline.Run[Request]) (Result, error) {
		return refreshStep(ctx, o.Name, rel, o.Concurrently)
	}
	return pipeline.NewJob(o.Name, func(Request) string { return "refresh" }, body, jo)
}

// MustRefresh is [Refresh] that panics on a bad declaration, for
// package-level variables.
func MustRefresh(o Options) *pipeline.Job[Request, Result] {
	j, err := Refresh(o)
	if err != nil {
		panic(err)
	}
	return j
}

// RefreshJob answers the stock job, pipe.views.refresh, that `pipe views
// refresh` enqueues and every `pipe worker` runs: each run refreshes the
// view its input names, checked against the catalog when the run starts
// (a refusal is terminal). Its idempotency key is its whole input, the view
// and whether concurrently.
func RefreshJob() *pipeline.Job[Target, Result] {
	body := func(ctx context.Context, r *pipeline.Run[Target]) (Result, error) {
		if f := relationFaults(r.Input.View); len(f) > 0 {
			return Result{}, refusal(RefreshJobName, f)
		}
		return refreshStep(ctx, RefreshJobName, r.Input.View, r.Input.Concurrently)
	}
	return pipeline.MustJob(RefreshJobName, Target.key, body,
		pipeline.JobOptions[Target, Result]{Queue: "pipe", Retry: &pipeline.Retry{Attempts: 3}})
}

// refreshStep refreshes the view in one step whose completion commits with
// the refresh.
func refreshStep(ctx context.Context, name string, rel pg.Relation, concurrently bool) (Result, error) {
	return pipeline.StepTx(ctx, "refresh", func(ctx context.Context, tx pgx.Tx) (Result, error) {
		st, err := readState(ctx, tx, rel)
		if err != nil {
			return Result{}, err
		}
		if f := st.faults(rel, concurrently); len(f) > 0 {
			return Result{}, refusal(name, f)
		}
		res := Result{View: rel.String(), Concurrently: concurrently && st.populated, WasPopulated: st.populated}
		stmt := "refresh materialized view " + rel.Quoted()
		if res.Concurrently {
			stmt = "refresh materialized view concurrently " + rel.Quoted()
		}
		_, err = tx.Exec(ctx, stmt)
		return res, errcode.Redact(ctx, err, "refresh "+rel.String()) // the view's query can fail quoting a row
	})
}

// declFaults names what the declaration alone shows is wrong.
func declFaults(o Options) (pg.Relation, []string) {
	var faults []string
	if strings.TrimSpace(o.Name) == "" {
		faults = append(faults, "Name is empty")
	}
	faults = append(faults, relationFaults(o.View)...)
	if o.Job.Tenant != nil {
		faults = append(faults, "Job.Tenant is set: a refresh has no tenant (the view's readers scope its rows)")
	}
	return o.View, faults
}

// relationFaults refuses no view, and one PostgreSQL would not name as
// given.
func relationFaults(view pg.Relation) []string {
	if view.IsZero() {
		return []string{"View is empty: name the materialized view"}
	}
	if err := view.Check(); err != nil {
		return []string{"View: " + pgcatalog.Fault(err)}
	}
	return nil
}

func refusal(name string, faults []string) error {
	label := name
	if strings.TrimSpace(label) == "" {
		label = "(unnamed)"
	}
	return errcode.New(errcode.JobRefreshViewInvalid, "refresh %s: %s", label, strings.Join(faults, "; ")).
		WithFix("name a materialized view, with a unique index on it (no WHERE, no expression) to refresh it concurrently")
}

// verify checks the view in a transaction it rolls back.
func verify(ctx context.Context, db pipeline.DB, name string, rel pg.Relation, concurrently bool) error {
	tx, err := db.Begin(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	st, err := readState(ctx, tx, rel)
	if err != nil {
		return err
	}
	if f := st.faults(rel, concurrently); len(f) > 0 {
		return refusal(name, f)
	}
	return nil
}

// state is the view as the catalog knows it.
type state struct {
	kind      pgcatalog.Kind // "" when there is no such relation
	populated bool
	unique    bool
}

func readState(ctx context.Context, tx pgx.Tx, rel pg.Relation) (state, error) {
	c, found, err := pgcatalog.Lookup(ctx, tx, rel)
	if err != nil || !found {
		return state{}, err
	}
	uniques, err := pgcatalog.UniqueKeys(ctx, tx, c.OID)
	return state{kind: c.Kind, populated: c.Populated, unique: len(uniques) > 0}, err
}

func (st state) faults(rel pg.Relation, concurrently bool) []string {
	switch st.kind {
	case "m":
	case "":
		return []string{rel.String() + " does not exist"}
	case "r", "p":
		return []string{rel.String() + " is a table, not a materialized view"}
	case "v":
		return []string{rel.String() + " is a plain view, not a materialized view: it is always current"}
	default:
		return []string{rel.String() + " is not a materialized view"}
	}
	if concurrently && !st.unique {
		return []string{"concurrently needs a unique index on " + rel.String() + " (no WHERE, no expression), and it has none"}
	}
	return nil
}
