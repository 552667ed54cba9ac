package subject

import (
	"context"
	"embed"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pipekit/pipe/internal/pgcatalog"
	"github.com/pipekit/pipe/internal/sqlfile"
	"github.com/pipekit/pipe/pg"
)

// The catalog statements live in queries/*.sql, one statement a file.
//
//go:embed queries/*.sql
var queryFiles embed.FS

var mustQuery = sqlfile.Reader(queryFiles, "subject")

var (
	sqlForeignKeys = mustQuery("foreign_keys")
	sqlTables      = mustQuery("tables")
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
	Name    string // as a plan shows it, as SQL writes it: without the schema when the search path finds it
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

// column is one column of a table, as the catalog room reads it.
type column = pgcatalog.Column

// ident answers the table's quoted name.
func (t *table) ident() string { return pg.Relation{Schema: t.Schema, Name: t.Rel}.Quoted() }

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

// resolve answers the oid of the table a declared name means, read as SQL
// writes it ("members", "app.members", `app."Member Notes"`), or 0 when no
// table has it; a name that does not parse is refused with why.
func resolve(ctx context.Context, q Querier, name string) (uint32, string, error) {
	rel, err := pg.ParseRelation(name)
	if err != nil {
		return 0, pgcatalog.Fault(err), nil
	}
	c, found, err := pgcatalog.Lookup(ctx, q, rel)
	if err != nil || !found || !c.Kind.IsTable() {
		return 0, "", err
	}
	return c.OID, "", nil
}

// planName answers a table's name as a plan shows it, the way a
// declaration names it: as SQL writes it, without the schema when the
// search path finds the table.
func planName(visible bool, schema, name string) string {
	if visible {
		return pg.QuoteName(name)
	}
	return pg.Relation{Schema: schema, Name: name}.String()
}

// readTables reads the tables oids from the catalog.
func readTables(ctx context.Context, q Querier, oids []uint32) (map[uint32]*table, error) {
	ids := make([]int64, len(oids))
	for i, o := range oids {
		ids[i] = int64(o)
	}
	out := map[uint32]*table{}
	var oid int64
	var visible bool
	var t table
	rows, _ := q.Query(ctx, sqlTables, ids)
	_, err := pgx.ForEachRow(rows, []any{&oid, &visible, &t.Schema, &t.Rel, &t.May.Select, &t.May.Update, &t.May.Delete, &t.May.Insert, &t.Partitioned}, func() error {
		tt := t
		tt.OID = uint32(oid)
		tt.Name = planName(visible, t.Schema, t.Rel)
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
	oids := make([]uint32, len(ids))
	for i, id := range ids {
		oids[i] = uint32(id)
	}
	cols, err := pgcatalog.ColumnsOf(ctx, q, oids)
	for oid, cs := range cols {
		if t := out[oid]; t != nil {
			t.Columns = cs
		}
	}
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
