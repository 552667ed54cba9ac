package importrows

import (
	"context"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/internal/sqlname"
)

// tableColumn is one column of the target table as the catalog knows it.
type tableColumn struct {
	Name      string
	Type      string
	NotNull   bool
	Defaulted bool
	Generated bool
}

// target is the resolved table: its quoted name and its columns.
type target struct {
	Ident   string // schema-qualified, quoted
	Columns []tableColumn
	Key     []string
}

// ident answers the table's quoted name.
func (t Table) ident() string {
	if t.Schema == "" {
		return pgx.Identifier{t.Name}.Sanitize()
	}
	return pgx.Identifier{t.Schema, t.Name}.Sanitize()
}

// checkNames refuses a name PostgreSQL would cut to 63 bytes, so that it
// named another table or column than the one asked for.
func (t Table) checkNames() error {
	return namesErr(append(sqlname.LengthFaults("schema", t.Schema),
		append(sqlname.LengthFaults("table", t.Name), sqlname.LengthFaults("key column", t.Key...)...)...))
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
	ident := t.ident()
	var oid uint32
	var kind string
	err := q.QueryRow(ctx, sqlTableOID, ident).Scan(&oid, &kind)
	if err == pgx.ErrNoRows {
		return nil, errcode.New(errcode.ImportTableInvalid, "import: table %s does not exist", ident).
			WithFix("create the table first, or name it with its schema")
	}
	if err != nil {
		return nil, err
	}
	if kind != "r" && kind != "p" {
		return nil, errcode.New(errcode.ImportTableInvalid, "import: %s is not a table", ident).
			WithFix("import into a table; a view or materialized view cannot be written")
	}
	cols, err := readColumns(ctx, q, oid)
	if err != nil {
		return nil, err
	}
	tg := &target{Ident: ident, Columns: cols, Key: t.Key}
	if len(t.Key) == 0 {
		return tg, nil
	}
	return tg, checkKey(ctx, q, oid, ident, t.Key)
}

func readColumns(ctx context.Context, q pgx.Tx, oid uint32) ([]tableColumn, error) {
	rows, err := q.Query(ctx, sqlTableColumns, oid)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (tableColumn, error) {
		var c tableColumn
		err := r.Scan(&c.Name, &c.Type, &c.NotNull, &c.Defaulted, &c.Generated)
		return c, err
	})
}

// checkKey refuses a key no unique index covers exactly: ON CONFLICT needs
// one.
func checkKey(ctx context.Context, q pgx.Tx, oid uint32, ident string, key []string) error {
	rows, err := q.Query(ctx, sqlUniqueKeys, oid)
	if err != nil {
		return err
	}
	sets, err := pgx.CollectRows(rows, pgx.RowTo[[]string])
	if err != nil {
		return err
	}
	want := slices.Clone(key)
	slices.Sort(want)
	for _, s := range sets {
		if slices.Equal(s, want) {
			return nil
		}
	}
	return errcode.New(errcode.ImportTableInvalid, "import: no unique index of %s covers exactly the key (%s)", ident, strings.Join(key, ", ")).
		WithFix("create a unique index or constraint on the key columns, or import without a key")
}

// column answers the table's column named name.
func (t *target) column(name string) (tableColumn, bool) {
	for _, c := range t.Columns {
		if c.Name == name {
			return c, true
		}
	}
	return tableColumn{}, false
}
