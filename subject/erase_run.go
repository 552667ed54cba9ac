package subject

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pipekit/pipe/errcode"
)

// maxPasses bounds the passes of an erase over its tables: a pass after
// the first runs only when the app wrote the person's rows meanwhile.
const maxPasses = 3

// eraser is one attempt of one erase: the declaration, the person's key
// and the walk, made by the attempt's first step that runs (a replayed
// step needs none).
type eraser struct {
	decl  Declaration
	key   []string
	limit int
	steps steps
	g     *graph
}

// erase plans, erases the objects and the targets, clears, treats the
// tables children first, checks and treats the root; a check that finds the person's
// rows again, or a root delete blocked by one, starts another pass.
func (ex *eraser) erase(ctx context.Context) (EraseResult, error) {
	p, err := ex.steps.plan(ctx, func(ctx context.Context, tx pgx.Tx) (*Plan, error) {
		g, err := ex.graphIn(ctx, tx)
		if err != nil {
			return nil, err
		}
		return g.plan(), nil
	})
	if err != nil {
		return EraseResult{}, err
	}
	res := EraseResult{Root: p.Root}
	if res.Objects, err = ex.eraseObjects(ctx, p); err != nil {
		return res, err
	}
	if res.Targets, err = ex.eraseTargets(ctx, p); err != nil {
		return res, err
	}
	rows := map[string]int64{}
	for pass := 0; ; pass++ {
		res.Passes = pass + 1
		done, err := ex.pass(ctx, p, pass, rows, &res)
		if err != nil || done {
			res.Tables = tableResults(p, rows, false)
			return res, err
		}
		if pass+1 == maxPasses {
			return res, errcode.New(errcode.SubjectEraseIncomplete, "subject %s: the person's rows were written again during %d passes of the erase", p.Root, maxPasses).
				WithFix("stop the app writing the person's rows (block the account first), then enqueue the erase again")
		}
	}
}

// pass clears, treats every table but the root, checks, and treats the
// root. It answers whether the erase is done.
func (ex *eraser) pass(ctx context.Context, p *Plan, pass int, rows map[string]int64, res *EraseResult) (bool, error) {
	at := fmt.Sprintf("p%d/", pass)
	for _, c := range p.Clears {
		n, err := ex.pages(ctx, at+"clear/"+c.Table+"."+c.Name, false, &res.Released, func(g *graph) (stmt, string, error) {
			fk := g.keyNamed(c)
			if fk == nil {
				return stmt{}, "", changed(p.Root, "the key "+c.Name+" of "+c.Table+" is no longer cleared")
			}
			return g.clearPage(fk, ex.limit), c.Table, nil
		})
		res.Cleared += n
		if err != nil {
			return false, err
		}
	}
	var treated []string
	for _, t := range p.Tables[:len(p.Tables)-1] {
		if t.Treatment == string(kindRetain) {
			continue
		}
		treated = append(treated, t.Table)
		n, err := ex.pages(ctx, at+t.Treatment+"/"+t.Table, t.Treatment == string(kindAnonymize), &res.Released, func(g *graph) (stmt, string, error) {
			return ex.tableStmt(g, p, t.Table)
		})
		rows[t.Table] += n
		if err != nil {
			return false, err
		}
	}
	if len(treated) > 0 {
		left, err := ex.check(ctx, p, at+"check", treated)
		if err != nil || left > 0 {
			return false, err
		}
	}
	return ex.rootStep(ctx, p, at+"root", rows, &res.Released)
}

// pages runs the steps of one table (or clear) until a page comes back
// short, and answers the rows written. An anonymize also stops when a
// page left as many rows to change as the one before (an expression that
// never settles), rather than loop.
func (ex *eraser) pages(ctx context.Context, prefix string, anonymize bool, released *int64, build func(g *graph) (stmt, string, error)) (int64, error) {
	var total int64
	prev := int64(-1)
	for page := 0; ; page++ {
		out, err := ex.steps.tx(ctx, fmt.Sprintf("%s/page-%05d", prefix, page), func(ctx context.Context, tx pgx.Tx) (pageOut, error) {
			g, err := ex.graphIn(ctx, tx)
			if err != nil {
				return pageOut{}, err
			}
			st, table, err := build(g)
			if err != nil {
				return pageOut{}, err
			}
			return counted(ctx, tx, prefix, table, ex.key, st)
		})
		total += out.Changed
		*released += out.Released
		if err != nil {
			return total, err
		}
		if err := ex.steps.progress(ctx, total, prefix); err != nil {
			return total, err
		}
		short := out.Found < int64(ex.limit)
		if anonymize {
			short = out.Found <= int64(ex.limit) || prev >= 0 && out.Found >= prev
			prev = out.Found
		}
		if short {
			return total, nil
		}
	}
}

// tableStmt answers the page statement of the planned table named table.
func (ex *eraser) tableStmt(g *graph, p *Plan, table string) (stmt, string, error) {
	n := g.nodeNamed(table)
	if n == nil || n.root {
		return stmt{}, "", changed(p.Root, "table "+table+" is no longer reached")
	}
	switch n.kind {
	case kindDelete:
		return g.deletePage(n, ex.limit), table, nil
	case kindAnonymize:
		return g.anonymizePage(n, ex.limit), table, nil
	}
	return stmt{}, "", changed(p.Root, "table "+table+" is no longer deleted or anonymized")
}

// check counts the person's rows left in the treated tables: any left
// means the app wrote some meanwhile, and the erase takes another pass.
func (ex *eraser) check(ctx context.Context, p *Plan, name string, tables []string) (int64, error) {
	out, err := ex.steps.tx(ctx, name, func(ctx context.Context, tx pgx.Tx) (pageOut, error) {
		g, err := ex.graphIn(ctx, tx)
		if err != nil {
			return pageOut{}, err
		}
		ns := make([]*node, len(tables))
		for i, t := range tables {
			if ns[i] = g.nodeNamed(t); ns[i] == nil {
				return pageOut{}, changed(p.Root, "table "+t+" is no longer reached")
			}
		}
		st := g.leftovers(ns)
		var left []int64
		if err := tx.QueryRow(ctx, st.SQL, args(ex.key, st)...).Scan(&left); err != nil {
			return pageOut{}, statementErr(err, "the check", p.Root)
		}
		var out pageOut
		for _, n := range left {
			out.Left += n
		}
		return out, nil
	})
	return out.Left, err
}

// rootStep treats the root's row last. A delete that a row written
// meanwhile blocks (a foreign key violation) is rolled back and reported,
// and the erase takes another pass.
func (ex *eraser) rootStep(ctx context.Context, p *Plan, name string, rows map[string]int64, released *int64) (bool, error) {
	root := p.Tables[len(p.Tables)-1]
	if root.Treatment == string(kindRetain) {
		return true, nil
	}
	out, err := ex.steps.tx(ctx, name, func(ctx context.Context, tx pgx.Tx) (pageOut, error) {
		g, err := ex.graphIn(ctx, tx)
		if err != nil {
			return pageOut{}, err
		}
		if g.root.kind == kindAnonymize {
			return counted(ctx, tx, "anonymize", root.Table, ex.key, g.anonymizePage(g.root, 1))
		}
		return ex.deleteRoot(ctx, tx, g)
	})
	rows[root.Table] += out.Changed
	*released += out.Released
	return !out.Blocked, err
}

func (ex *eraser) deleteRoot(ctx context.Context, tx pgx.Tx, g *graph) (pageOut, error) {
	sp, err := tx.Begin(ctx)
	if err != nil {
		return pageOut{}, err
	}
	st := g.rootDelete()
	var out pageOut
	err = sp.QueryRow(ctx, st.SQL, args(ex.key, st)...).Scan(&out.Changed, &out.Released)
	var pg *pgconn.PgError
	if errors.As(err, &pg) && pg.Code == "23503" {
		return pageOut{Blocked: true}, sp.Rollback(ctx)
	}
	if err != nil {
		_ = sp.Rollback(ctx)
		return pageOut{}, statementErr(err, "delete", g.root.t.Name)
	}
	out.Found = out.Changed
	return out, sp.Commit(ctx)
}

// graphIn answers the attempt's walk, made in tx by its first step that
// runs; a declaration the catalog no longer matches is refused here.
func (ex *eraser) graphIn(ctx context.Context, tx pgx.Tx) (*graph, error) {
	if ex.g != nil {
		return ex.g, nil
	}
	g, err := walk(ctx, tx, ex.decl)
	if err != nil {
		return nil, err
	}
	if err := g.refusal(ctx, tx); err != nil {
		return nil, err
	}
	if ex.key != nil {
		if err := g.keyFault(ctx, tx, ex.key); err != nil {
			return nil, err
		}
	}
	ex.g = g
	return g, nil
}

func changed(root, what string) error {
	return errcode.New(errcode.SubjectTreatmentInvalid, "subject %s: the catalog changed since the run planned: %s", root, what).
		WithFix("enqueue the erase again: a new run plans the catalog as it is")
}

// tableResults answers the per-table counts in plan order.
func tableResults(p *Plan, rows map[string]int64, all bool) []TableResult {
	var out []TableResult
	for _, t := range p.Tables {
		if t.Treatment == string(kindRetain) && !all {
			out = append(out, TableResult{Table: t.Table, Treatment: t.Treatment, Reason: t.Reason})
			continue
		}
		out = append(out, TableResult{Table: t.Table, Treatment: t.Treatment, Reason: t.Reason, Rows: rows[t.Table]})
	}
	return out
}

// nodeNamed answers the reached table a plan names, or nil.
func (g *graph) nodeNamed(name string) *node {
	for _, n := range g.nodes {
		if n.t.Name == name {
			return n
		}
	}
	return nil
}

// keyNamed answers the cleared key a plan names, or nil.
func (g *graph) keyNamed(k PlanKey) *foreignKey {
	n := g.nodeNamed(k.Table)
	if n == nil {
		return nil
	}
	for _, fk := range n.detach {
		if fk.Name == k.Name && !fk.setNullByDatabase() {
			return fk
		}
	}
	return nil
}
