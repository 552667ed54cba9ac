package importrows

import (
	"context"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/internal/pgcatalog"
)

// target is the resolved table: its quoted name and its columns.
type target struct {
	Ident   string // schema-qualified, quoted
	Columns []pgcatalog.Column
	Key     []string
}

// checkNames refuses a name PostgreSQL would not keep as given — empty, or
// cut to 63 bytes so that it named another table or column than the one
// asked for.
func (t Table) checkNames() error {
	var faults []string
	if err := t.Relation.Check(); err != nil {
		faults = append(faults, pgcatalog.Fault(err))
	}
	return namesErr(append(faults, pgcatalog.LengthFaults("key column", t.Key...)...))
}

// namesErr answers X_IMPORT_TABLE_INVALID naming every name fault, or nil.
func namesErr(faults []string) error {
	if len(faults) == 0 {
		return nil
	}
	return errcode.New(errcode.ImportTableInvalid, "import: %s", strings.Join(faults, "; ")).
		WithFix("name the table and its columns as PostgreSQL knows them: a longer name would be cut and could name another one")
}

// readTarget resolves t in the catalog: it must be a table, and a key must
// be covered by a unique index on exactly its columns.
func readTarget(ctx context.Context, q pgx.Tx, t Table) (*target, error) {
	if err := t.checkNames(); err != nil {
		return nil, err
	}
	ident := t.Relation.Quoted()
	rel, found, err := pgcatalog.Lookup(ctx, q, t.Relation)
	switch {
	case err != nil:
		return nil, err
	case !found:
		return nil, errcode.New(errcode.ImportTableInvalid, "import: table %s does not exist", ident).
			WithFix("create the table first, or name it with its schema")
	case !rel.Kind.IsTable():
		return nil, errcode.New(errcode.ImportTableInvalid, "import: %s is not a table", ident).
			WithFix("import into a table; a view or materialized view cannot be written")
	}
	cols, err := pgcatalog.Columns(ctx, q, rel.OID)
	if err != nil {
		return nil, err
	}
	tg := &target{Ident: ident, Columns: cols, Key: t.Key}
	if len(t.Key) == 0 {
		return tg, nil
	}
	return tg, checkKey(ctx, q, rel.OID, ident, t.Key)
}

// checkKey refuses a key no unique index covers exactly: ON CONFLICT needs
// one.
func checkKey(ctx context.Context, q pgx.Tx, oid uint32, ident string, key []string) error {
	sets, err := pgcatalog.UniqueKeys(ctx, q, oid)
	if err != nil {
		return err
	}
	want := slices.Sorted(slices.Values(key))
	if slices.ContainsFunc(sets, func(s []string) bool { return slices.Equal(s, want) }) {
		return nil
	}
	return errcode.New(errcode.ImportTableInvalid, "import: no unique index of %s covers exactly the key (%s)", ident, strings.Join(key, ", ")).
		WithFix("create a unique index or constraint on the key columns, or import without a key")
}

// column answers the table's column named name.
func (t *target) column(name string) (pgcatalog.Column, bool) {
	i := slices.IndexFunc(t.Columns, func(c pgcatalog.Column) bool { return c.Name == name })
	if i < 0 {
		return pgcatalog.Column{}, false
	}
	return t.Columns[i], true
}

// fillsItself reports whether a column a file leaves out gets a value
// anyway: a default, an identity or a generated column.
func fillsItself(c pgcatalog.Column) bool { return c.HasDefault || c.Identity || c.Generated }
