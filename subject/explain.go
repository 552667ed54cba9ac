package subject

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// Explained is the server's plan of one statement an erase or export
// runs.
type Explained struct {
	// Step names the statement as the erase's steps do: clear, delete,
	// anonymize, check, root or export, with its table.
	Step  string `json:"step"`
	Table string `json:"table"`
	// Scans are the plan's scans of tables, in plan order.
	Scans []Scan `json:"scans"`
}

// Scan is one scan of a table in a plan.
type Scan struct {
	// Node is the plan node: Seq Scan, Index Scan, Index Only Scan,
	// Bitmap Heap Scan, Tid Scan...
	Node     string  `json:"node"`
	Relation string  `json:"relation"`
	Index    string  `json:"index,omitempty"`
	Rows     float64 `json:"rows"` // the planner's estimate
}

// SeqScans answers the tables e scans sequentially.
func (e Explained) SeqScans() []string {
	var out []string
	for _, s := range e.Scans {
		if s.Node == "Seq Scan" && !slices.Contains(out, s.Relation) {
			out = append(out, s.Relation)
		}
	}
	return out
}

// Explain asks the server to plan every statement an erase of key runs,
// and an export's first page of every table, without running them. It
// needs a plan from [NewPlan].
func (p *Plan) Explain(ctx context.Context, db pipeline.DB, key Key) ([]Explained, error) {
	if p.g == nil {
		return nil, errcode.New(errcode.Invariant, "subject: only a plan from NewPlan can be explained").
			WithFix("plan with subject.NewPlan")
	}
	k, err := keyTexts(key)
	if err != nil {
		return nil, err
	}
	var out []Explained
	for _, st := range p.statements() {
		var raw []byte
		if err := db.QueryRow(ctx, "explain (format json) "+st.st.SQL, args(k, st.st)...).Scan(&raw); err != nil {
			return nil, statementErr(err, "explain "+st.step, st.table)
		}
		e := Explained{Step: st.step, Table: st.table}
		var doc []struct {
			Plan planNode `json:"Plan"`
		}
		if err := json.Unmarshal(raw, &doc); err != nil {
			return nil, err
		}
		for _, d := range doc {
			d.Plan.scans(&e.Scans)
		}
		out = append(out, e)
	}
	return out, nil
}

type planNode struct {
	Node     string     `json:"Node Type"`
	Relation string     `json:"Relation Name"`
	Index    string     `json:"Index Name"`
	Rows     float64    `json:"Plan Rows"`
	Plans    []planNode `json:"Plans"`
}

func (n planNode) scans(out *[]Scan) {
	if n.Relation != "" && n.Node != "ModifyTable" {
		*out = append(*out, Scan{Node: n.Node, Relation: n.Relation, Index: n.Index, Rows: n.Rows})
	}
	for _, c := range n.Plans {
		c.scans(out)
	}
}

type namedStmt struct {
	step, table string
	st          stmt
}

// statements answers every statement an erase runs, in order, then each
// table's first export page.
func (p *Plan) statements() []namedStmt {
	g := p.g
	var out []namedStmt
	for _, c := range p.Clears {
		if fk := g.keyNamed(c); fk != nil {
			out = append(out, namedStmt{"clear", c.Table, g.clearPage(fk, DefaultPageRows)})
		}
	}
	var treated []*node
	for _, n := range g.eraseOrder() {
		switch {
		case n.root && n.kind == kindDelete:
			out = append(out, namedStmt{"root", n.t.Name, g.rootDelete()})
		case n.kind == kindDelete:
			out = append(out, namedStmt{"delete", n.t.Name, g.deletePage(n, DefaultPageRows)})
		case n.kind == kindAnonymize:
			out = append(out, namedStmt{"anonymize", n.t.Name, g.anonymizePage(n, DefaultPageRows)})
		}
		if !n.root && n.kind != kindRetain {
			treated = append(treated, n)
		}
	}
	if len(treated) > 0 {
		out = append(out, namedStmt{"check", p.Root, g.leftovers(treated)})
	}
	for _, n := range g.eraseOrder() {
		out = append(out, namedStmt{"export", n.t.Name, g.exportPage(n, []string{"1"}, nil, DefaultPageRows)})
	}
	return out
}
