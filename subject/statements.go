package subject

import (
	"slices"
	"strings"
)

// deletePage deletes up to limit of the person's rows of n and answers how
// many it found and how many it deleted.
func (g *graph) deletePage(n *node, limit int) stmt {
	s := g.builder()
	s.with(append([]*node{n}, g.releasedNodes(n)...)...)
	s.w(",\npage as (select ", colList("", rowID(n)), " from ", cteName(n), " limit ", s.param(limit), ")")
	s.w(",\ngone as (delete from ", n.t.ident(), " t where ")
	s.rowMatch("t", n, "page")
	s.w(" returning ", g.returning(n), ")\nselect (select count(*) from page), (select count(*) from gone), ")
	s.released(n, "gone")
	return s.done()
}

// anonymizePage replaces the declared columns of up to limit of the
// person's rows of n that do not hold their values yet, and answers how
// many rows still needed it (this page's included) and how many it
// changed. A replay finds the rows already changed and leaves them.
func (g *graph) anonymizePage(n *node, limit int) stmt {
	s := g.builder()
	s.with(n)
	s.w(",\nneed as (select ", colList("t", rowID(n)), " from ", n.t.ident(), " t where ")
	s.rowMatch("t", n, cteName(n))
	s.w(" and (")
	s.differs(n)
	s.w("))")
	s.w(",\npage as (select * from need limit ", s.param(limit), ")")
	s.w(",\ndone as (update ", n.t.ident(), " t set ")
	s.assignments(n)
	s.w(" where ")
	s.rowMatch("t", n, "page")
	s.w(" returning 1)\nselect (select count(*) from need), (select count(*) from done), 0")
	return s.done()
}

// values answers, per anonymized column in order, the SQL of its value
// cast to the column's type; constants become parameters.
func (s *builder) values(n *node) ([]string, []string) {
	cols := sortedKeys(n.treat.Anonymize)
	vals := make([]string, len(cols))
	for i, c := range cols {
		col := n.t.column(c)
		switch v := n.treat.Anonymize[c].(type) {
		case nil:
			vals[i] = "null::" + col.Type
		case SQL:
			vals[i] = "(" + string(v) + "\n)::" + col.Type
		default:
			text, _ := constantText(v)
			vals[i] = s.param(text) + "::text::" + col.Type
		}
	}
	return cols, vals
}

// differs writes the condition that a row (as t) does not hold every
// anonymized value yet, comparing texts (json has no equality).
func (s *builder) differs(n *node) {
	cols, vals := s.values(n)
	for i, c := range cols {
		if i > 0 {
			s.w(" or ")
		}
		s.w("t.", quote(c), "::text is distinct from (", vals[i], ")::text")
	}
}

func (s *builder) assignments(n *node) {
	cols, vals := s.values(n)
	for i, c := range cols {
		if i > 0 {
			s.w(", ")
		}
		s.w(quote(c), " = ", vals[i])
	}
}

// clearPage sets to null the nullable columns of fk in up to limit rows
// referencing the person's rows of its parent, and answers how many it
// found and changed.
func (g *graph) clearPage(fk *foreignKey, limit int) stmt {
	x := g.byOID[fk.Child]
	s := g.builder()
	p := g.parentOf(fk)
	if g.directKey(fk) {
		s.with(x)
	} else {
		s.with(p, x)
	}
	s.w(",\npage as (select ", colList("t", rowID(x)), " from ", x.t.ident(), " t where ")
	s.pred("t", fk)
	s.w(" limit ", s.param(limit), ")")
	s.w(",\ndone as (update ", x.t.ident(), " t set ")
	for i, c := range g.clearedCols(fk) {
		if i > 0 {
			s.w(", ")
		}
		s.w(quote(c), " = null")
	}
	s.w(" where ")
	s.rowMatch("t", x, "page")
	s.w(" returning 1)\nselect (select count(*) from page), (select count(*) from done), (select count(*) from page p where not (")
	s.rowMatch("p", x, cteName(x))
	s.w("))")
	return s.done()
}

// clearedCols answers the columns a clear of fk sets null: the nullable
// ones under MATCH SIMPLE, all under MATCH FULL.
func (g *graph) clearedCols(fk *foreignKey) []string {
	t := g.tables[fk.Child]
	var out []string
	for _, c := range fk.ChildCols {
		if col := t.column(c); fk.Match == "f" || col != nil && !col.NotNull {
			out = append(out, c)
		}
	}
	return out
}

// leftovers counts, per table of ns in order, the person's rows an erase
// has yet to delete or anonymize.
func (g *graph) leftovers(ns []*node) stmt {
	s := g.builder()
	s.with(ns...)
	s.w("\nselect array[")
	for i, n := range ns {
		if i > 0 {
			s.w(", ")
		}
		if n.kind == kindAnonymize {
			s.w("(select count(*) from ", n.t.ident(), " t where ")
			s.rowMatch("t", n, cteName(n))
			s.w(" and (")
			s.differs(n)
			s.w("))")
			continue
		}
		s.w("(select count(*) from ", cteName(n), ")")
	}
	s.w("]::int8[]")
	return s.done()
}

// rootDelete deletes the person's root row.
func (g *graph) rootDelete() stmt {
	s := g.builder()
	s.with(append([]*node{g.root}, g.releasedNodes(g.root)...)...)
	s.w(",\ngone as (delete from ", g.root.t.ident(), " t where ")
	s.keyMatch("t", g.key, g.key, g.keyTypes(g.root.t, g.key))
	s.w(" returning ", g.returning(g.root), ")\nselect (select count(*) from gone), ")
	s.released(g.root, "gone")
	return s.done()
}

// exportPage reads up to limit of the person's rows of n in row-identity
// order, after the identity after (nil: from the first), selecting the
// columns sel and then the identity's columns as text.
func (g *graph) exportPage(n *node, sel []string, after []string, limit int) stmt {
	s := g.builder()
	s.with(n)
	id := rowID(n)
	hidden := make([]string, len(id))
	for i := range id {
		hidden[i] = colList("t", id[i:i+1]) + "::text"
	}
	s.w("\nselect ", strings.Join(append(slices.Clone(sel), hidden...), ", "), " from ", n.t.ident(), " t where ")
	s.rowMatch("t", n, cteName(n))
	if after != nil {
		params := make([]string, len(id))
		types := g.idTypes(n)
		for i := range id {
			params[i] = s.param(after[i]) + "::text::" + types[i]
		}
		s.w(" and (", colList("t", id), ") > (", strings.Join(params, ", "), ")")
	}
	s.w(" order by ", colList("t", id), " limit ", s.param(limit))
	return s.done()
}

// idTypes answers the types of n's row identity.
func (g *graph) idTypes(n *node) []string {
	if usesCTID(n) {
		return []string{"tid"}
	}
	return g.keyTypes(n.t, rowID(n))
}
