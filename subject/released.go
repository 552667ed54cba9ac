package subject

import (
	"slices"
)

// Other people's rows an erase changes: rows that reference the person's
// rows without being theirs (another member's reply to the person's
// comment, a member the person invited) are released — their key set to
// null by a clear step, or by the database's ON DELETE SET NULL when the
// person's row goes — never deleted. Each step counts them apart from the
// person's own rows: EraseResult.Released.

// releasedKeys answers the keys by which the database itself sets null the
// rows referencing n's deleted rows that are not the person's through that
// key: keys into n set null on delete, from the root or a cleared key.
func (g *graph) releasedKeys(n *node) []*foreignKey {
	var out []*foreignKey
	for _, c := range g.nodes {
		for _, fk := range c.via {
			if fk.Parent == n.t.OID && fk.setNullByDatabase() && !g.followed(c, fk) {
				out = append(out, fk)
			}
		}
	}
	return out
}

// releasedNodes answers the tables holding releasedKeys(n), for the WITH
// list: each needs the person's rows, to count the others'.
func (g *graph) releasedNodes(n *node) []*node {
	var out []*node
	for _, fk := range g.releasedKeys(n) {
		if c := g.byOID[fk.Child]; !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// returning answers what a delete of n returns: the columns its released
// keys reference, or 1 when none.
func (g *graph) returning(n *node) string {
	var cols []string
	for _, fk := range g.releasedKeys(n) {
		for _, c := range fk.ParentCols {
			if !slices.Contains(cols, c) {
				cols = append(cols, c)
			}
		}
	}
	if len(cols) == 0 {
		return "1"
	}
	return colList("t", cols)
}

// released writes the count of rows the database releases when the rows
// of n in gone are deleted: per released key, the rows referencing them
// that are not the person's (read before the delete, in the statement's
// snapshot).
func (s *builder) released(n *node, gone string) {
	keys := s.g.releasedKeys(n)
	if len(keys) == 0 {
		s.w("0")
		return
	}
	for i, fk := range keys {
		if i > 0 {
			s.w(" + ")
		}
		c := s.g.byOID[fk.Child]
		s.w("(select count(*) from ", c.t.ident(), " x where ")
		s.in("x", fk.ChildCols, fk.ParentCols, gone)
		s.w(" and not (")
		s.rowMatch("x", c, cteName(c))
		s.w("))")
	}
}
