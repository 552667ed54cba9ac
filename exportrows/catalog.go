package exportrows

import (
	"context"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/internal/pgcatalog"
)

// table is the source table as the catalog knows it.
type table struct {
	Columns []string
	NotNull map[string]bool
	Primary []string
	Uniques [][]string
	Kind    pgcatalog.Kind // r, p (tables), m (materialized view), v (view), f (foreign table)
	OID     uint32
}

// readTable resolves the source table in the catalog.
func readTable(ctx context.Context, tx pgx.Tx, s Source) (*table, error) {
	rel, found, err := pgcatalog.Lookup(ctx, tx, s.Table)
	if err != nil {
		return nil, err
	}
	if !found || len(rel.Kind) != 1 || !strings.Contains("rpvmf", string(rel.Kind)) {
		return nil, errcode.New(errcode.ExportSourceInvalid, "export: %s is not a table or view", s.label()).
			WithFix("name an existing table, view or materialized view, with its schema if it is not on the search path")
	}
	t := &table{NotNull: map[string]bool{}, Kind: rel.Kind, OID: rel.OID}
	cols, err := pgcatalog.Columns(ctx, tx, rel.OID)
	if err != nil {
		return nil, err
	}
	for _, c := range cols {
		t.Columns = append(t.Columns, c.Name)
		t.NotNull[c.Name] = c.NotNull
	}
	if t.Primary, err = pgcatalog.PrimaryKey(ctx, tx, rel.OID); err != nil {
		return nil, err
	}
	t.Uniques, err = pgcatalog.UniqueKeys(ctx, tx, rel.OID)
	return t, err
}

// probe answers the result columns of sql (a LIMIT 0 read of the source,
// read-only as every read of an export is). A source the server refuses
// (see sourceErr) is X_EXPORT_SOURCE_INVALID.
func probe(ctx context.Context, tx pgx.Tx, label, sql string, args []any) ([]pgconn.FieldDescription, error) {
	ro, done, err := readOnly(ctx, tx)
	if err != nil {
		return nil, err
	}
	var fds []pgconn.FieldDescription
	rows, err := ro.Query(ctx, sql, args...)
	if err == nil {
		fds = slices.Clone(rows.FieldDescriptions()) // the connection reuses its own
		rows.Close()
		err = rows.Err()
	}
	if rerr := done(); err == nil {
		err = rerr
	}
	if ue := undefinedColumn(err, sql, label); ue != nil {
		return nil, ue
	}
	if err != nil {
		return nil, sourceErr(ctx, err, label)
	}
	return fds, nil
}

// typesOf names the types of the result columns fds.
func typesOf(ctx context.Context, tx pgx.Tx, fds []pgconn.FieldDescription) ([]colType, error) {
	oids := make([]int64, len(fds))
	mods := make([]int32, len(fds))
	for i, fd := range fds {
		oids[i], mods[i] = int64(fd.DataTypeOID), fd.TypeModifier
	}
	out := make([]colType, 0, len(fds))
	rows, _ := tx.Query(ctx, sqlColumnTypes, oids, mods)
	var c colType
	var elem int64
	_, err := pgx.ForEachRow(rows, []any{&c.Type, &c.Base, &elem}, func() error {
		i := len(out)
		c.Name, c.OID, c.Mod, c.Elem = fds[i].Name, fds[i].DataTypeOID, fds[i].TypeModifier, uint32(elem)
		out = append(out, c)
		return nil
	})
	return out, err
}
