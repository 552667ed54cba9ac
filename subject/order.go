package subject

import (
	"slices"
	"strings"
)

// followed reports whether the person's rows of n include the rows that
// reference the person's rows of its parent by fk: the key is walked, not
// cleared, and its parent is the root or a deleted table. Keys into the
// root are never followed: the root's rows of the person are the key's.
func (g *graph) followed(n *node, fk *foreignKey) bool {
	return !n.root && !slices.Contains(n.detach, fk)
}

// parentOf answers the reached table fk references.
func (g *graph) parentOf(fk *foreignKey) *node { return g.byOID[fk.Parent] }

// clearable reports whether fk can be cleared by setting its nullable
// columns to NULL: under MATCH SIMPLE one NULL column releases the row,
// under MATCH FULL every column must be nullable.
func (g *graph) clearable(fk *foreignKey) bool {
	if fk.Virtual {
		return false
	}
	nullable := g.nullableCount(fk)
	if fk.Match == "f" {
		return nullable == len(fk.ChildCols)
	}
	return nullable > 0
}

// nullableCount answers how many of fk's columns are nullable.
func (g *graph) nullableCount(fk *foreignKey) int {
	t := g.tables[fk.Child]
	n := 0
	for _, c := range fk.ChildCols {
		if col := t.column(c); col != nil && !col.NotNull {
			n++
		}
	}
	return n
}

// setNullByDatabase reports whether the database itself releases the
// referencing rows when the referenced one is deleted.
func (fk *foreignKey) setNullByDatabase() bool { return fk.OnDelete == "n" || fk.OnDelete == "d" }

// breakLoops chooses, in every loop of deleted tables, keys to clear
// first: those the database sets null on delete, else nullable ones,
// self references first. It answers each loop left without one, naming
// its tables and keys ([graph.refusal] makes them X_SUBJECT_CYCLE). Keys
// from deleted tables into the root are cleared too (they are other
// people's rows referencing the person's); without a nullable column they
// are a loop through the root.
func (g *graph) breakLoops() []string {
	var stuck []string
	for _, fk := range g.root.via {
		p := g.parentOf(fk)
		if p.root || p.kind != kindDelete {
			continue
		}
		if fk.setNullByDatabase() || g.clearable(fk) {
			g.root.detach = append(g.root.detach, fk)
		} else if g.root.kind == kindDelete {
			stuck = append(stuck, "rows of "+g.root.t.Name+" reference "+p.t.Name+" by "+g.label(fk)+" NOT NULL, and both are deleted")
		}
	}
	for {
		loop := g.findLoop()
		if loop == nil {
			break
		}
		fk := g.loopBreaker(loop)
		if fk == nil {
			stuck = append(stuck, "the loop "+g.loopLabel(loop)+" has no nullable key to clear first")
			for _, e := range loop { // go on: name every loop, not only the first
				g.byOID[e.Child].detach = append(g.byOID[e.Child].detach, e)
			}
			continue
		}
		c := g.byOID[fk.Child]
		c.detach = append(c.detach, fk)
	}
	return stuck
}

// loopEdges answers the followed keys between non-root deleted tables.
func (g *graph) loopEdges() []*foreignKey {
	var out []*foreignKey
	for _, n := range g.nodes {
		if n.root || n.kind != kindDelete {
			continue
		}
		for _, fk := range n.via {
			if p := g.parentOf(fk); !p.root && p.kind == kindDelete && g.followed(n, fk) {
				out = append(out, fk)
			}
		}
	}
	return out
}

// findLoop answers the keys of one loop among the deleted tables, or nil.
// The search is a depth-first walk from child to parent in reach order,
// so the same graph answers the same loop.
func (g *graph) findLoop() []*foreignKey {
	edges := g.loopEdges()
	out := map[uint32][]*foreignKey{}
	for _, e := range edges {
		out[e.Child] = append(out[e.Child], e)
	}
	state := map[uint32]int{} // 0 unseen, 1 on the stack, 2 done
	var stack []*foreignKey
	var found []*foreignKey
	var visit func(oid uint32) bool
	visit = func(oid uint32) bool {
		state[oid] = 1
		for _, e := range out[oid] {
			switch state[e.Parent] {
			case 1:
				start := slices.IndexFunc(stack, func(s *foreignKey) bool { return s.Child == e.Parent })
				if start < 0 {
					start = len(stack)
				}
				found = append(slices.Clone(stack[start:]), e)
				return true
			case 0:
				stack = append(stack, e)
				if visit(e.Parent) {
					return true
				}
				stack = stack[:len(stack)-1]
			}
		}
		state[oid] = 2
		return false
	}
	for _, n := range g.nodes {
		if state[n.t.OID] == 0 && visit(n.t.OID) {
			return found
		}
	}
	return nil
}

// loopBreaker answers the key of loop to clear: one the database sets null
// on delete, else a clearable one; a self reference first, then in the
// loop's order.
func (g *graph) loopBreaker(loop []*foreignKey) *foreignKey {
	var best *foreignKey
	rank := func(fk *foreignKey) int {
		r := 0
		switch {
		case fk.setNullByDatabase():
			r = 3
		case g.clearable(fk):
			r = 2
		default:
			return 0
		}
		if fk.Child == fk.Parent {
			r += 10
		}
		return r
	}
	for _, fk := range loop {
		if rank(fk) > 0 && (best == nil || rank(fk) > rank(best)) {
			best = fk
		}
	}
	return best
}

func (g *graph) loopLabel(loop []*foreignKey) string {
	parts := make([]string, 0, len(loop)+1)
	for _, e := range loop {
		parts = append(parts, g.label(e))
	}
	return strings.Join(parts, " -> ") + " -> " + g.nameOf(loop[0].Child)
}

// eraseOrder answers every reached table children first: a table comes
// before every table it references by a followed key, the root last.
// Ties go in reach order, so one graph always answers one order.
func (g *graph) eraseOrder() []*node {
	children := map[*node]int{} // followed keys from tables not yet ordered
	for _, n := range g.nodes {
		for _, fk := range n.via {
			if p := g.parentOf(fk); g.followed(n, fk) && p != n {
				children[p]++
			}
		}
	}
	done := map[*node]bool{}
	var out []*node
	for len(out) < len(g.nodes)-1 {
		progressed := false
		for _, n := range g.nodes {
			if n.root || done[n] || children[n] > 0 {
				continue
			}
			done[n], progressed = true, true
			out = append(out, n)
			for _, fk := range n.via {
				if p := g.parentOf(fk); g.followed(n, fk) && p != n {
					children[p]--
				}
			}
			break
		}
		if !progressed { // breakLoops leaves no loop; guard anyway
			break
		}
	}
	return append(out, g.root)
}
