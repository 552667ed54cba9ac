package subject

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// validate names every fault of the treatments against the catalog. The
// values are checked by PostgreSQL itself, each cast in a savepoint of tx.
func (g *graph) validate(ctx context.Context, tx pgx.Tx) ([]string, error) {
	faults := g.faults
	for _, n := range g.nodes {
		faults = append(faults, g.privilegeFaults(n)...)
		faults = append(faults, g.keptFaults(n)...)
		if n.kind == kindAnonymize {
			f, err := g.anonymizeFaults(ctx, tx, n)
			if err != nil {
				return nil, err
			}
			faults = append(faults, f...)
		}
	}
	faults = append(faults, g.columnsFaults()...)
	faults = append(faults, g.sealedFaults()...)
	faults = append(faults, g.objectsFaults()...)
	return faults, nil
}

func (g *graph) privilegeFaults(n *node) []string {
	var faults []string
	switch {
	case !n.t.May.Select:
		faults = append(faults, "table "+n.t.Name+": this role may not read it")
	case n.kind == kindDelete && !n.t.May.Delete:
		faults = append(faults, "table "+n.t.Name+": delete, but this role may not delete from it")
	case n.kind == kindAnonymize && !n.t.May.Update:
		faults = append(faults, "table "+n.t.Name+": anonymize, but this role may not update it")
	case n.t.Partitioned && len(n.t.Primary) == 0:
		faults = append(faults, "table "+n.t.Name+" is partitioned and has no primary key: a ctid names no one row of it, so pipe cannot page it")
	}
	return faults
}

// keptFaults refuses kept rows (anonymized or retained) under a deleted
// parent: NO ACTION or RESTRICT would block the parent's delete, CASCADE
// would remove the kept row. The database setting the key null, or the
// anonymize replacing it, releases the row.
func (g *graph) keptFaults(n *node) []string {
	if n.kind == kindDelete || n.kind == "" {
		return nil
	}
	var faults []string
	for _, fk := range n.via {
		p := g.parentOf(fk)
		if p.kind != kindDelete || fk.Virtual || slices.Contains(n.detach, fk) && !fk.setNullByDatabase() || g.releases(n, fk) {
			continue
		}
		if fk.setNullByDatabase() {
			if fk.OnDelete == "n" && g.nullableCount(fk) < len(fk.ChildCols) {
				faults = append(faults, "delete on "+p.t.Name+" would fail: "+g.label(fk)+" is ON DELETE SET NULL but NOT NULL")
			}
			continue
		}
		whose := "kept rows of " + n.t.Name
		if n.root {
			whose = "other people's rows of " + n.t.Name
		}
		if fk.OnDelete == "c" {
			faults = append(faults, whose+" reference "+p.t.Name+" by "+g.label(fk)+" ON DELETE CASCADE: deleting "+
				p.t.Name+" would remove them; delete "+n.t.Name+" too, or anonymize "+strings.Join(fk.ChildCols, ", ")+" to null")
			continue
		}
		faults = append(faults, "delete on "+p.t.Name+" is blocked: "+whose+" reference it by "+g.label(fk)+" ON DELETE "+
			fk.onDelete()+"; delete "+n.t.Name+" too, or anonymize "+strings.Join(fk.ChildCols, ", ")+" to null")
	}
	return faults
}

// releases reports whether n's anonymize lets go of fk: it sets a nullable
// key column to null (MATCH SIMPLE), or replaces every key column.
func (g *graph) releases(n *node, fk *foreignKey) bool {
	if n.kind != kindAnonymize {
		return false
	}
	all := true
	for _, c := range fk.ChildCols {
		v, ok := n.treat.Anonymize[c]
		if ok && v == nil && fk.Match != "f" {
			return true
		}
		all = all && ok
	}
	return all
}

// anonymizeFaults checks each anonymized column: it exists, is not
// generated, is not a key other rows reference or the person's key, is
// given a value its type accepts (null only when nullable), and a unique
// index over it is not given one constant for every person.
func (g *graph) anonymizeFaults(ctx context.Context, tx pgx.Tx, n *node) ([]string, error) {
	var faults []string
	at := "table " + n.t.Name + ": "
	for _, name := range sortedKeys(n.treat.Anonymize) {
		c := n.t.column(name)
		switch {
		case c == nil:
			faults = append(faults, at+"anonymize names column "+name+", which it does not have")
			continue
		case c.Generated:
			faults = append(faults, at+"column "+name+" is generated: it cannot be anonymized")
			continue
		case g.referenced(n, name):
			faults = append(faults, at+"column "+name+" is a key other rows reference (or the person's key): anonymizing it would re-point them")
			continue
		}
		f, err := checkValue(ctx, tx, n.t, c, n.treat.Anonymize[name])
		if err != nil {
			return nil, err
		}
		if f != "" {
			faults = append(faults, at+f)
		}
	}
	for _, name := range sortedKeys(n.treat.Keep) {
		if n.t.column(name) == nil {
			faults = append(faults, at+"keep names column "+name+", which it does not have")
		}
	}
	for _, u := range n.t.Uniques {
		if constantOver(n.treat.Anonymize, u) {
			faults = append(faults, at+"every erased person would get the same value of ("+strings.Join(u, ", ")+
				"), which is unique: anonymize one of them to null or to an SQL expression over the row")
		}
	}
	return faults, nil
}

// referenced reports whether column col of n is referenced by a foreign key
// of the database or is the root's key.
func (g *graph) referenced(n *node, col string) bool {
	if n.root && slices.Contains(g.key, col) {
		return true
	}
	for _, fk := range g.fks {
		if fk.Parent == n.t.OID && slices.Contains(fk.ParentCols, col) {
			return true
		}
	}
	return false
}

// constantOver reports whether vals sets every column of cols to a
// constant that is not null.
func constantOver(vals map[string]any, cols []string) bool {
	for _, c := range cols {
		v, ok := vals[c]
		if _, expr := v.(SQL); !ok || v == nil || expr {
			return false
		}
	}
	return true
}

// checkValue asks PostgreSQL whether v fits column c: a constant is cast
// from its text to the column's type, and must read back the same
// through the type with and without its modifiers (so a varchar(10) does
// not silently cut it); an SQL expression must parse over the table and
// cast to the type. Each check runs in a savepoint. It answers the fault,
// or "".
func checkValue(ctx context.Context, tx pgx.Tx, t *table, c *column, v any) (string, error) {
	if v == nil {
		if c.NotNull {
			return "column " + c.Name + " is NOT NULL: it cannot be anonymized to null", nil
		}
		return "", nil
	}
	if e, ok := v.(SQL); ok {
		sql := "select (" + string(e) + "\n)::" + c.Type + " from " + t.ident() + " limit 0"
		if code, err := trySQL(ctx, tx, sql, nil); err != nil || code != "" {
			return "the anonymize expression of column " + c.Name + " does not run as " + c.Type + " (SQLSTATE " + code + ")", err
		}
		return "", nil
	}
	text, ok := constantText(v)
	if !ok {
		return "the anonymize value of column " + c.Name + " is not a constant pipe can send", nil
	}
	var same bool
	sql := "select ($1::text::" + c.Type + ")::text = ($1::text::" + c.Base + ")::text"
	code, err := trySQL(ctx, tx, sql, []any{text}, &same)
	switch {
	case err != nil:
		return "", err
	case code != "":
		return "the anonymize value of column " + c.Name + " is not a valid " + c.Type + " (SQLSTATE " + code + ")", nil
	case !same:
		return "the anonymize value of column " + c.Name + " does not fit " + c.Type + " without change", nil
	}
	return "", nil
}

// trySQL runs sql in a savepoint, scanning one row into dest when given,
// and answers the SQLSTATE of a statement PostgreSQL refused ("" when it
// ran). Other failures (a lost connection) are errors.
func trySQL(ctx context.Context, tx pgx.Tx, sql string, args []any, dest ...any) (string, error) {
	sp, err := tx.Begin(ctx)
	if err != nil {
		return "", err
	}
	defer func() { _ = sp.Rollback(ctx) }()
	if len(dest) > 0 {
		err = sp.QueryRow(ctx, sql, args...).Scan(dest...)
	} else {
		var rows pgx.Rows
		rows, err = sp.Query(ctx, sql, args...)
		if err == nil {
			rows.Close()
			err = rows.Err()
		}
	}
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return pg.Code, nil
	}
	return "", err
}

// columnsFaults checks the declared Columns: each names columns of its
// table, as many as the root's key has.
func (g *graph) columnsFaults() []string {
	var faults []string
	for _, fk := range g.fks {
		if !fk.Virtual {
			continue
		}
		t := g.tables[fk.Child]
		if t == nil {
			continue
		}
		if len(fk.ChildCols) != len(g.key) {
			faults = append(faults, "columns of "+t.Name+" names "+itoa(int64(len(fk.ChildCols)))+" columns for a key of "+itoa(int64(len(g.key))))
		}
		for _, c := range fk.ChildCols {
			if t.column(c) == nil {
				faults = append(faults, "columns of "+t.Name+" names column "+c+", which it does not have")
			}
		}
	}
	return faults
}

// sealedFaults checks that every sealed column exists.
func (g *graph) sealedFaults() []string {
	var faults []string
	for _, name := range sortedKeys(g.decl.Sealed) {
		n := g.byDeclared(name)
		if n == nil {
			faults = append(faults, "sealed names table "+name+", which the walk does not reach")
			continue
		}
		for _, c := range g.decl.Sealed[name] {
			if n.t.column(c) == nil {
				faults = append(faults, "sealed names column "+c+" of "+name+", which it does not have")
			}
		}
	}
	return faults
}

// objectsFaults checks that each prefix's placeholders are key columns.
func (g *graph) objectsFaults() []string {
	var faults []string
	for _, o := range g.decl.Objects {
		for _, p := range placeholders(o.Prefix) {
			if !slices.Contains(g.key, p) {
				faults = append(faults, "objects "+o.Name+": the prefix's {"+p+"} is not a column of the root's key")
			}
		}
	}
	return faults
}

func (g *graph) byDeclared(name string) *node {
	for _, n := range g.nodes {
		if n.name == name {
			return n
		}
	}
	return nil
}
