package subject

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/pipekit/pipe/pipeline"
)

// Plan is a declaration walked against the live catalog: every table the
// person's data reaches, in the order an erase treats them (children
// first, the root last), the path that reached each, the keys by which its
// rows are the person's, and the keys cleared before the deletes.
type Plan struct {
	// Root is the root table and Key its columns identifying the person.
	Root string   `json:"root"`
	Key  []string `json:"key"`
	// Tables are the reached tables in erase order, the root last.
	Tables []PlanTable `json:"tables"`
	// Clears are the keys set to null before any delete: keys of a loop of
	// deleted tables, and other people's root rows referencing the
	// person's deleted rows. Their rows are released, not deleted.
	Clears []PlanKey `json:"clears,omitempty"`
	// Objects are the declared objects outside the database.
	Objects []Objects `json:"objects,omitempty"`
	// Targets are the declared targets, by name.
	Targets []PlanTarget `json:"targets,omitempty"`
	// Unindexed lists keys the erase follows with no index leading with
	// their columns: "comments(post_id)". Each page would scan the table.
	Unindexed []string `json:"unindexed,omitempty"`
	// Notes are remarks that refuse nothing (a declared table not reached).
	Notes []string `json:"notes,omitempty"`
	// PlannedAt is the database clock when a job's run planned; zero for
	// [NewPlan].
	PlannedAt time.Time `json:"plannedAt,omitzero"`

	g *graph
}

// PlanTable is one reached table.
type PlanTable struct {
	Table string `json:"table"`
	// Treatment is delete, anonymize or retain; Reason a retain's reason;
	// Columns the anonymized columns, Keep the columns an anonymize keeps.
	Treatment string   `json:"treatment"`
	Reason    string   `json:"reason,omitempty"`
	Columns   []string `json:"columns,omitempty"`
	Keep      []string `json:"keep,omitempty"`
	// Path is the path of keys that first reached it, from the root:
	// members <- posts(author_id) <- comments(post_id).
	Path string `json:"path"`
	// Keys are the keys by which its rows are the person's.
	Keys []PlanKey `json:"keys,omitempty"`
	// Sealed are its columns an export leaves out.
	Sealed []string `json:"sealed,omitempty"`
}

// PlanKey is one key from a reached table to the table it references.
type PlanKey struct {
	// Name is the constraint's name, or "columns of T" for a declared
	// Columns entry (Virtual).
	Name       string   `json:"name"`
	Table      string   `json:"table"`
	Columns    []string `json:"columns"`
	References string   `json:"references"`
	RefColumns []string `json:"refColumns"`
	// OnDelete is NO ACTION, RESTRICT, CASCADE, SET NULL or SET DEFAULT.
	OnDelete string `json:"onDelete"`
	Virtual  bool   `json:"virtual,omitempty"`
	Indexed  bool   `json:"indexed"`
}

// NewPlan walks d against the catalog db reaches and validates every
// treatment. A reached table without a treatment is
// X_SUBJECT_TABLE_UNDECLARED naming it and its path; a treatment that
// cannot be carried out X_SUBJECT_TREATMENT_INVALID naming every fault; a
// loop of deleted tables without a nullable key X_SUBJECT_CYCLE. The
// checks run in a transaction of their own (a savepoint when db is one),
// rolled back: planning writes nothing.
func NewPlan(ctx context.Context, db pipeline.DB, d Declaration) (*Plan, error) {
	tx, err := db.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer func() { _ = tx.Rollback(ctx) }()
	g, err := walk(ctx, tx, d)
	if err != nil {
		return nil, err
	}
	if err := g.refusal(ctx, tx); err != nil {
		return nil, err
	}
	return g.plan(), nil
}

// Check is [NewPlan] for a job's Verify: nil when the declaration still
// matches the catalog.
func (d Declaration) Check(ctx context.Context, db pipeline.DB) error {
	_, err := NewPlan(ctx, db, d)
	return err
}

// plan renders the walk.
func (g *graph) plan() *Plan {
	p := &Plan{Root: g.root.t.Name, Key: g.key, Objects: g.decl.Objects, Targets: planTargets(g.decl.Targets), Notes: g.notes, g: g}
	for _, n := range g.eraseOrder() {
		p.Tables = append(p.Tables, g.planTable(n))
		for _, fk := range n.via {
			switch {
			case slices.Contains(n.detach, fk):
				if !fk.setNullByDatabase() {
					p.Clears = append(p.Clears, g.planKey(fk))
				}
				if !g.tables[fk.Child].indexed(fk.ChildCols) {
					p.Unindexed = append(p.Unindexed, g.label(fk))
				}
			case g.followed(n, fk) && !g.tables[fk.Child].indexed(fk.ChildCols):
				p.Unindexed = append(p.Unindexed, g.label(fk))
			}
		}
	}
	return p
}

func (g *graph) planTable(n *node) PlanTable {
	pt := PlanTable{Table: n.t.Name, Treatment: string(n.kind), Path: g.pathOf(n), Sealed: g.decl.Sealed[n.name]}
	switch n.kind {
	case kindRetain:
		pt.Reason = n.treat.Retain
	case kindAnonymize:
		pt.Columns, pt.Keep = sortedKeys(n.treat.Anonymize), sortedKeys(n.treat.Keep)
	}
	for _, fk := range n.via {
		if g.followed(n, fk) {
			pt.Keys = append(pt.Keys, g.planKey(fk))
		}
	}
	return pt
}

func (g *graph) planKey(fk *foreignKey) PlanKey {
	return PlanKey{Name: fk.Name, Table: g.nameOf(fk.Child), Columns: fk.ChildCols, References: g.nameOf(fk.Parent),
		RefColumns: fk.ParentCols, OnDelete: fk.onDelete(), Virtual: fk.Virtual, Indexed: g.tables[fk.Child].indexed(fk.ChildCols)}
}

// Table answers the planned table named name, or nil.
func (p *Plan) Table(name string) *PlanTable {
	for i := range p.Tables {
		if p.Tables[i].Table == name {
			return &p.Tables[i]
		}
	}
	return nil
}

// String renders the plan as `pipe subject plan` prints it.
func (p *Plan) String() string {
	var b strings.Builder
	b.WriteString("subject " + p.Root + " (" + strings.Join(p.Key, ", ") + "): " + itoa(int64(len(p.Tables))) + " tables, children first\n")
	for i, t := range p.Tables {
		treat := t.Treatment
		switch {
		case t.Reason != "":
			treat += " (" + t.Reason + ")"
		case len(t.Columns) > 0:
			treat += " " + strings.Join(t.Columns, ", ")
		}
		b.WriteString("  " + itoa(int64(i+1)) + ". " + t.Table + ": " + treat + "\n     via " + t.Path + "\n")
	}
	for _, c := range p.Clears {
		b.WriteString("  first, clear " + c.Table + "(" + strings.Join(c.Columns, ", ") + ") where it references the person's " + c.References + "\n")
	}
	for _, o := range p.Objects {
		what := "delete"
		if o.Retain != "" {
			what = "retain (" + o.Retain + ")"
		}
		b.WriteString("  objects " + o.Name + ": " + what + " under " + o.Prefix + "\n")
	}
	for _, t := range p.Targets {
		what := "erase"
		if t.Retain != "" {
			what = "retain (" + t.Retain + ")"
		}
		b.WriteString("  target " + t.Name + ": " + what + "\n")
	}
	for _, u := range p.Unindexed {
		b.WriteString("  warning: no index on " + u + ": each page of the erase scans the table\n")
	}
	for _, n := range p.Notes {
		b.WriteString("  note: " + n + "\n")
	}
	return b.String()
}
