package subject

import (
	"context"
	"embed"
	"errors"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pipekit/pipe/internal/sqlfile"
)

// The catalog statements live in queries/*.sql, one statement a file.
//
//go:embed queries/*.sql
var queryFiles embed.FS

var mustQuery = sqlfile.Reader(queryFiles, "subject")

var (
	sqlRelation    = mustQuery("relation")
	sqlForeignKeys = mustQuery("foreign_keys")
	sqlTables      = mustQuery("tables")
	sqlColumns     = mustQuery("columns")
	sqlIndexes     = mustQuery("indexes")
	sqlAllTables   = mustQuery("all_tables")
)

// Querier is what the catalog is read through: a pool, a connection or a
// transaction.
type Querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// table is one table as the catalog knows it.
type table struct {
	OID     uint32
	Name    string // as a plan shows it: without the schema when the search path finds it
	Schema  string
	Rel     string
	Columns []column
	Primary []string
	Uniques [][]string // unique, non-partial, plain-column indexes (the primary key among them)
	Indexes [][]string // the leading plain columns of every plain index
	May     privileges
	// Partitioned is set for a partitioned table, whose ctid does not name
	// one row: it needs a primary key to be paged.
	Partitioned bool
}

type privileges struct{ Select, Update, Delete, Insert bool }

// column is one column of a table.
type column struct {
	Name      string
	Type      string // with modifiers: varchar(40)
	Base      string // without: character varying
	NotNull   bool
	Default   bool // has a default (or is an identity)
	Identity  bool
	Generated bool
	Category  string // pg_type.typcategory of the column's (base) type
	TypType   string // b base, d domain, e enum, c composite, r range...
	Domain    string // a domain's base type, with modifiers
	Elem      string // an array's element type
	TypeOID   uint32 // the type's oid (a domain's base type's)
}

// ident answers the table's quoted name.
func (t *table) ident() string { return pgx.Identifier{t.Schema, t.Rel}.Sanitize() }

// column answers the named column, or nil.
func (t *table) column(name string) *column {
	for i := range t.Columns {
		if t.Columns[i].Name == name {
			return &t.Columns[i]
		}
	}
	return nil
}

// indexed reports whether some plain index leads with cols, in any order.
func (t *table) indexed(cols []string) bool {
	for _, idx := range t.Indexes {
		if len(idx) >= len(cols) && sameSet(idx[:len(cols)], cols) {
			return true
		}
	}
	return false
}

// resolve answers the oid of the table a declared name means, or 0 when
// no table has it.
func resolve(ctx context.Context, q Querier, name string) (uint32, error) {
	var oid uint32
	var kind string
	err := q.QueryRow(ctx, sqlRelation, quotedName(name)).Scan(&oid, &kind)
	if errors.Is(err, pgx.ErrNoRows) || err == nil && kind != "r" && kind != "p" {
		return 0, nil
	}
	return oid, err
}

// quotedName quotes a declared "table" or "schema.table".
func quotedName(name string) string {
	if s, t, ok := strings.Cut(name, "."); ok {
		return pgx.Identifier{s, t}.Sanitize()
	}
	return pgx.Identifier{name}.Sanitize()
}

// readTables reads the tables oids from the catalog.
func readTables(ctx context.Context, q Querier, oids []uint32) (map[uint32]*table, error) {
	ids := make([]int64, len(oids))
	for i, o := range oids {
		ids[i] = int64(o)
	}
	out := map[uint32]*table{}
	var oid int64
	var t table
	rows, _ := q.Query(ctx, sqlTables, ids)
	_, err := pgx.ForEachRow(rows, []any{&oid, &t.Name, &t.Schema, &t.Rel, &t.May.Select, &t.May.Update, &t.May.Delete, &t.May.Insert, &t.Partitioned}, func() error {
		tt := t
		tt.OID = uint32(oid)
		out[tt.OID] = &tt
		return nil
	})
	if err == nil {
		err = readColumns(ctx, q, ids, out)
	}
	if err == nil {
		err = readIndexes(ctx, q, ids, out)
	}
	return out, err
}

func readColumns(ctx context.Context, q Querier, ids []int64, out map[uint32]*table) error {
	var oid, typ int64
	var c column
	rows, _ := q.Query(ctx, sqlColumns, ids)
	_, err := pgx.ForEachRow(rows, []any{&oid, &c.Name, &c.Type, &c.Base, &c.NotNull, &c.Default, &c.Identity,
		&c.Generated, &c.Category, &c.TypType, &c.Domain, &c.Elem, &typ}, func() error {
		c.TypeOID = uint32(typ)
		if t := out[uint32(oid)]; t != nil {
			t.Columns = append(t.Columns, c)
		}
		return nil
	})
	return err
}

func readIndexes(ctx context.Context, q Querier, ids []int64, out map[uint32]*table) error {
	var oid int64
	var cols []string
	var unique, primary, partial bool
	rows, _ := q.Query(ctx, sqlIndexes, ids)
	_, err := pgx.ForEachRow(rows, []any{&oid, &cols, &unique, &primary, &partial}, func() error {
		t := out[uint32(oid)]
		if t == nil || partial || len(cols) == 0 {
			return nil
		}
		if primary {
			t.Primary = cols
		}
		if unique {
			t.Uniques = append(t.Uniques, cols)
		}
		t.Indexes = append(t.Indexes, cols)
		return nil
	})
	return err
}

// foreignKey is one foreign key: the child's columns referencing the
// parent's. A virtual key is a declared Columns entry: no constraint, so
// no delete action.
type foreignKey struct {
	Name       string
	Child      uint32
	ChildCols  []string
	Parent     uint32
	ParentCols []string
	OnDelete   string // a no action, r restrict, c cascade, n set null, d set default
	Match      string // s simple, f full
	Virtual    bool
}

func readForeignKeys(ctx context.Context, q Querier) ([]*foreignKey, error) {
	var out []*foreignKey
	var fk foreignKey
	var child, parent int64
	rows, _ := q.Query(ctx, sqlForeignKeys)
	_, err := pgx.ForEachRow(rows, []any{&fk.Name, &child, &fk.ChildCols, &parent, &fk.ParentCols, &fk.OnDelete, &fk.Match}, func() error {
		k := fk
		k.Child, k.Parent = uint32(child), uint32(parent)
		out = append(out, &k)
		return nil
	})
	return out, err
}

// onDelete answers the delete action as SQL spells it.
func (fk *foreignKey) onDelete() string {
	switch fk.OnDelete {
	case "r":
		return "RESTRICT"
	case "c":
		return "CASCADE"
	case "n":
		return "SET NULL"
	case "d":
		return "SET DEFAULT"
	}
	return "NO ACTION"
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		found := false
		for _, y := range b {
			found = found || x == y
		}
		if !found {
			return false
		}
	}
	return true
}
