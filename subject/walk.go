package subject

import (
	"context"
	"slices"
	"strings"

	"github.com/pipekit/pipe/errcode"
)

// node is one table the walk reached.
type node struct {
	t      *table
	name   string // the name the declaration used for it ("" when undeclared)
	treat  Treatment
	kind   kind // "" when undeclared
	root   bool
	first  []*foreignKey // the path that first reached it, from the root
	via    []*foreignKey // every key by which it references a reached root or deleted table
	detach []*foreignKey // of via: keys cleared (or set null by the database) before the deletes, not followed
	idx    int           // its place in reach order
}

// graph is the walk's result: the reached tables and the keys between them.
type graph struct {
	decl   Declaration
	root   *node
	key    []string // the root's key columns
	nodes  []*node  // in reach order, the root first
	byOID  map[uint32]*node
	fks    []*foreignKey // every key of the database, the declared columns among them
	tables map[uint32]*table
	notes  []string
	faults []string // found while walking; validate names them with its own
}

// walk resolves the declaration's names and walks the foreign keys from the
// root, through deleted tables only. A declaration that does not resolve
// is X_SUBJECT_TREATMENT_INVALID; a reached table without a treatment
// X_SUBJECT_TABLE_UNDECLARED.
func walk(ctx context.Context, q Querier, d Declaration) (*graph, error) {
	shape := d.shapeFaults()
	if strings.TrimSpace(d.Root) == "" {
		return nil, invalid(d.Root, shape)
	}
	g := &graph{decl: d, byOID: map[uint32]*node{}}
	declared, faults, err := resolveDeclared(ctx, q, d)
	if err != nil {
		return nil, err
	}
	faults = append(shape, faults...)
	rootOID := declared[d.Root]
	if rootOID == 0 {
		return nil, invalid(d.Root, append([]string{"root " + d.Root + " is not a table"}, faults...))
	}
	if g.fks, err = readForeignKeys(ctx, q); err != nil {
		return nil, err
	}
	g.root = g.add(rootOID, nil)
	rootT, err := readTables(ctx, q, []uint32{rootOID})
	if err != nil {
		return nil, err
	}
	g.root.t = rootT[rootOID]
	key, keyFaults := rootKey(g.root.t, d)
	faults = append(faults, keyFaults...)
	g.key = key
	if key != nil {
		g.addVirtual(d, declared)
	}
	g.reach(d, declared)
	if err := g.readReached(ctx, q); err != nil {
		return nil, err
	}
	if err := g.undeclared(); err != nil {
		return nil, err
	}
	if key == nil {
		return nil, invalid(d.Root, faults)
	}
	g.faults = faults
	g.notDeclaredReached(d, declared)
	return g, nil
}

// resolveDeclared answers the oid of every table the declaration names,
// and a fault for each that names no table.
func resolveDeclared(ctx context.Context, q Querier, d Declaration) (map[string]uint32, []string, error) {
	out := map[string]uint32{}
	var faults []string
	names := append([]string{d.Root}, sortedKeys(d.Tables)...)
	names = append(names, sortedKeys(d.Columns)...)
	names = append(names, sortedKeys(d.Sealed)...)
	for _, n := range names {
		if _, done := out[n]; done {
			continue
		}
		oid, fault, err := resolve(ctx, q, n)
		if err != nil {
			return nil, nil, err
		}
		out[n] = oid
		switch {
		case fault != "":
			faults = append(faults, "table "+n+": "+fault)
		case oid == 0 && n != d.Root:
			faults = append(faults, "table "+n+" does not exist")
		}
	}
	return out, faults, nil
}

// rootKey answers the root's key columns: the declared ones, each a
// column, together unique; else the primary key.
func rootKey(t *table, d Declaration) ([]string, []string) {
	key := d.Key
	if len(key) == 0 {
		if len(t.Primary) == 0 {
			return nil, []string{"root " + t.Name + " has no primary key: declare its key columns in key"}
		}
		return t.Primary, nil
	}
	var faults []string
	for _, c := range key {
		if t.column(c) == nil {
			faults = append(faults, "key column "+c+" is not a column of "+t.Name)
		}
	}
	unique := slices.ContainsFunc(t.Uniques, func(u []string) bool { return len(without(u, key)) == 0 })
	if len(faults) == 0 && !unique {
		faults = append(faults, "key ("+strings.Join(key, ", ")+") of "+t.Name+" is not unique: no unique index lies within it")
	}
	return key, faults
}

// addVirtual adds the declared Columns as keys referencing the root's key.
func (g *graph) addVirtual(d Declaration, declared map[string]uint32) {
	for _, name := range sortedKeys(d.Columns) {
		if oid := declared[name]; oid != 0 {
			g.fks = append(g.fks, &foreignKey{Name: "columns of " + name, Child: oid, ChildCols: d.Columns[name],
				Parent: g.root.t.OID, ParentCols: g.key, OnDelete: "a", Match: "s", Virtual: true})
		}
	}
}

// reach walks breadth first from the root: each key referencing a reached
// root or deleted table reaches its table; the walk goes on from a table
// only if its treatment is delete.
func (g *graph) reach(d Declaration, declared map[string]uint32) {
	byDeclared := map[uint32]string{}
	for _, name := range sortedKeys(d.Tables) {
		if oid := declared[name]; oid != 0 {
			byDeclared[oid] = name
		}
	}
	g.root.name = byDeclared[g.root.t.OID]
	g.root.treat = d.Tables[g.root.name]
	g.root.kind = g.root.treat.kind()
	if g.root.name == "" {
		g.root.kind = ""
	}
	for queue := []*node{g.root}; len(queue) > 0; queue = queue[1:] {
		p := queue[0]
		for _, fk := range g.fks {
			if fk.Parent != p.tOID() {
				continue
			}
			c, seen := g.byOID[fk.Child]
			if !seen {
				c = g.add(fk.Child, append(slices.Clone(p.first), fk))
				c.name = byDeclared[fk.Child]
				if c.name != "" {
					c.treat = d.Tables[c.name]
					c.kind = c.treat.kind()
				}
				if c.kind == kindDelete {
					queue = append(queue, c)
				}
			}
			c.via = append(c.via, fk)
		}
	}
}

func (n *node) tOID() uint32 {
	if n.t != nil {
		return n.t.OID
	}
	return 0
}

func (g *graph) add(oid uint32, path []*foreignKey) *node {
	n := &node{first: path, idx: len(g.nodes), root: len(g.nodes) == 0, t: &table{OID: oid}}
	g.nodes = append(g.nodes, n)
	g.byOID[oid] = n
	return n
}

// readReached reads every reached table from the catalog.
func (g *graph) readReached(ctx context.Context, q Querier) error {
	oids := make([]uint32, len(g.nodes))
	for i, n := range g.nodes {
		oids[i] = n.t.OID
	}
	tables, err := readTables(ctx, q, oids)
	if err != nil {
		return err
	}
	g.tables = tables
	for _, n := range g.nodes {
		if t := tables[n.t.OID]; t != nil {
			n.t = t
		}
	}
	return nil
}

// undeclared refuses the plan when a reached table has no treatment,
// naming each and the path that reached it.
func (g *graph) undeclared() error {
	var missing []string
	for _, n := range g.nodes {
		if n.name == "" {
			missing = append(missing, "table "+n.t.Name+" (reached by "+g.pathOf(n)+") has no treatment")
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return errcode.New(errcode.SubjectTableUndeclared, "subject %s: %s", g.root.t.Name, strings.Join(missing, "; ")).
		WithFix("declare a treatment for each: delete, {\"anonymize\": {...}} or {\"retain\": \"<reason>\"}")
}

// pathOf answers the path that first reached n: members <- posts.author_id
// <- comments.post_id.
func (g *graph) pathOf(n *node) string {
	parts := []string{g.root.t.Name}
	for _, fk := range n.first {
		parts = append(parts, g.label(fk))
	}
	return strings.Join(parts, " <- ")
}

// label names a key by its referencing table and columns.
func (g *graph) label(fk *foreignKey) string {
	name := g.nameOf(fk.Child) + "(" + strings.Join(fk.ChildCols, ", ") + ")"
	if fk.Virtual {
		name += " [columns]"
	}
	return name
}

func (g *graph) nameOf(oid uint32) string {
	if n := g.byOID[oid]; n != nil && n.t.Name != "" {
		return n.t.Name
	}
	if t := g.tables[oid]; t != nil {
		return t.Name
	}
	return "table " + itoa(int64(oid))
}

// notDeclaredReached notes declared tables the walk did not reach.
func (g *graph) notDeclaredReached(d Declaration, declared map[string]uint32) {
	for _, name := range sortedKeys(d.Tables) {
		if oid := declared[name]; oid != 0 && g.byOID[oid] == nil {
			g.notes = append(g.notes, "table "+name+" is declared but not reached: no foreign key or columns entry links it to a deleted table")
		}
	}
}

// invalid answers X_SUBJECT_TREATMENT_INVALID naming every fault.
func invalid(root string, faults []string) error {
	return errcode.New(errcode.SubjectTreatmentInvalid, "subject %s: %s", root, strings.Join(faults, "; ")).
		WithFix("correct each named fault in the declaration")
}

// without answers the names of a not in b, in a's order.
func without(a, b []string) []string {
	var out []string
	for _, n := range a {
		if !slices.Contains(b, n) {
			out = append(out, n)
		}
	}
	return out
}
