package subject

import (
	"slices"
	"strings"
)

// The statements are built from the walk: for every table whose rows
// lead further (the root and the deleted tables) and for every target, a
// common table expression s<N> answers the person's rows of the table —
// their row identity and the columns their children reference — as the
// union, per followed key, of the rows referencing the parent's
// expression. A key that references the root's key is compared with the
// key's values directly. Every comparison is an equality on key columns
// (a, b) = (...) or (a, b) in (select ... ), so each step is a run of
// index lookups; identifiers are quoted and values are parameters: $1..$K
// the person's key as text, cast by the server to each column's type,
// then the statement's own.

// stmt is one statement: its SQL and the arguments after the key's.
type stmt struct {
	SQL  string
	Args []any
}

// builder builds one statement, numbering its parameters after the key's.
type builder struct {
	g    *graph
	b    strings.Builder
	args []any
}

func (g *graph) builder() *builder { return &builder{g: g} }

func (s *builder) param(v any) string {
	s.args = append(s.args, v)
	return "$" + itoa(int64(len(s.g.key)+len(s.args)))
}

func (s *builder) done() stmt { return stmt{SQL: s.b.String(), Args: s.args} }

func (s *builder) w(parts ...string) {
	for _, p := range parts {
		s.b.WriteString(p)
	}
}

// rowID answers the columns that identify a row of n: its primary key, or
// its ctid (stable within the one statement each page is).
func rowID(n *node) []string {
	if len(n.t.Primary) > 0 {
		return n.t.Primary
	}
	return []string{"ctid"}
}

func usesCTID(n *node) bool { return len(n.t.Primary) == 0 }

// cols answers the columns n's expression selects: its row identity and
// the columns its followed children reference.
func (g *graph) cols(n *node) []string {
	out := slices.Clone(rowID(n))
	for _, c := range g.nodes {
		for _, fk := range c.via {
			if fk.Parent == n.t.OID && g.followed(c, fk) {
				for _, col := range fk.ParentCols {
					if !slices.Contains(out, col) {
						out = append(out, col)
					}
				}
			}
		}
	}
	return out
}

// colList answers names quoted, each prefixed by alias and a dot when
// alias is set; ctid stays a system column.
func colList(alias string, names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		q := quote(n)
		if n == "ctid" {
			q = "ctid"
		}
		if alias != "" {
			q = alias + "." + q
		}
		out[i] = q
	}
	return strings.Join(out, ", ")
}

func cteName(n *node) string { return "s" + itoa(int64(n.idx)) }

// with writes the WITH list holding the expressions of targets and of
// every table they descend from, parents first.
func (s *builder) with(targets ...*node) {
	var order []*node
	seen := map[*node]bool{}
	var visit func(n *node)
	visit = func(n *node) {
		if seen[n] {
			return
		}
		seen[n] = true
		for _, fk := range n.via {
			if s.g.followed(n, fk) && !s.g.directKey(fk) {
				visit(s.g.parentOf(fk))
			}
		}
		order = append(order, n)
	}
	for _, t := range targets {
		visit(t)
	}
	s.w("with ")
	for i, n := range order {
		if i > 0 {
			s.w(",\n")
		}
		s.w(cteName(n), " as (")
		s.expr(n)
		s.w(")")
	}
}

// expr writes the select answering the person's rows of n.
func (s *builder) expr(n *node) {
	cols := colList("t", s.g.cols(n))
	from := " from " + n.t.ident() + " t where "
	if n.root {
		s.w("select ", cols, from)
		s.keyMatch("t", s.g.key, s.g.key, s.g.keyTypes(n.t, s.g.key))
		return
	}
	first := true
	for _, fk := range n.via {
		if !s.g.followed(n, fk) {
			continue
		}
		if !first {
			s.w("\n union ")
		}
		first = false
		s.w("select ", cols, from)
		s.pred("t", fk)
	}
	if first {
		s.w("select ", cols, from, "false")
	}
}

// pred writes the condition that a row (as alias) of fk's child references
// the person's rows of fk's parent.
func (s *builder) pred(alias string, fk *foreignKey) {
	if s.g.directKey(fk) {
		child := s.g.tables[fk.Child]
		s.keyMatch(alias, fk.ChildCols, fk.ParentCols, s.g.keyTypes(child, fk.ChildCols))
		return
	}
	s.in(alias, fk.ChildCols, fk.ParentCols, cteName(s.g.parentOf(fk)))
}

// in writes the condition that alias's cols are among the rows of set's
// setCols: one column as = any(array(...)), which the planner always
// meets with an index; several as a row comparison (a, b) in (...).
func (s *builder) in(alias string, cols, setCols []string, set string) {
	if len(cols) == 1 {
		s.w(colList(alias, cols), " = any(array(select ", colList("", setCols), " from ", set, "))")
		return
	}
	s.w("(", colList(alias, cols), ") in (select ", colList("", setCols), " from ", set, ")")
}

// directKey reports whether fk references the root's key columns, so that
// its rows are found from the key's values without reading the root.
func (g *graph) directKey(fk *foreignKey) bool {
	p := g.parentOf(fk)
	if p == nil || !p.root {
		return false
	}
	for _, c := range fk.ParentCols {
		if !slices.Contains(g.key, c) {
			return false
		}
	}
	return len(fk.ParentCols) == len(g.key)
}

// keyMatch writes (alias.cols) = ($i::text::type, ...), where keyCols[j]
// is the root key column cols[j] takes its value from.
func (s *builder) keyMatch(alias string, cols, keyCols, types []string) {
	params := make([]string, len(cols))
	for j := range cols {
		i := slices.Index(s.g.key, keyCols[j])
		params[j] = "$" + itoa(int64(i+1)) + "::text::" + types[j]
	}
	s.w("(", colList(alias, cols), ") = (", strings.Join(params, ", "), ")")
}

// keyTypes answers the types the key's text is cast to for columns cols of
// t: without modifiers, so a value is never cut to fit.
func (g *graph) keyTypes(t *table, cols []string) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = "text"
		if col := t.column(c); col != nil {
			out[i] = col.Base
		}
	}
	return out
}

// rowMatch writes the condition that alias's row is one of set's rows.
func (s *builder) rowMatch(alias string, n *node, set string) {
	if usesCTID(n) {
		s.w(alias, ".ctid = any(array(select ctid from ", set, "))")
		return
	}
	s.in(alias, rowID(n), rowID(n), set)
}
