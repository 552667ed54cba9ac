package pgcatalog

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// Column is one column of a relation as the catalog knows it.
type Column struct {
	Name string
	// Type is the type with its modifiers (character varying(40)), Base
	// without them (character varying), TypeOID its oid.
	Type, Base string
	TypeOID    uint32
	NotNull    bool
	// HasDefault is set for a column with a default, and for a generated
	// one (its expression is stored as a default); Identity and Generated
	// for identity and generated columns.
	HasDefault, Identity, Generated bool
	// Category is the type's pg_type.typcategory (a domain's base type's):
	// S string, A array, E enum... TypType is its typtype: b base, d
	// domain, e enum, c composite, r range.
	Category, TypType string
	// Domain is a domain's base type with its modifiers; Elem an array's
	// element type; both "" otherwise.
	Domain, Elem string
	// BaseTypeOID is the oid of the type a value is: a domain's base
	// type's, else TypeOID.
	BaseTypeOID uint32
}

// Columns answers the columns of the relation oid, in column order.
func Columns(ctx context.Context, q Querier, oid uint32) ([]Column, error) {
	m, err := ColumnsOf(ctx, q, []uint32{oid})
	return m[oid], err
}

// ColumnsOf answers the columns of every relation oids names, each in
// column order, in one statement.
func ColumnsOf(ctx context.Context, q Querier, oids []uint32) (map[uint32][]Column, error) {
	ids := make([]int64, len(oids))
	for i, o := range oids {
		ids[i] = int64(o)
	}
	out := map[uint32][]Column{}
	var rel, typ, base int64
	var c Column
	rows, _ := q.Query(ctx, sqlColumns, ids)
	_, err := pgx.ForEachRow(rows, []any{&rel, &c.Name, &c.Type, &c.Base, &typ, &c.NotNull, &c.HasDefault, &c.Identity,
		&c.Generated, &c.Category, &c.TypType, &c.Domain, &c.Elem, &base}, func() error {
		c.TypeOID, c.BaseTypeOID = uint32(typ), uint32(base)
		out[uint32(rel)] = append(out[uint32(rel)], c)
		return nil
	})
	return out, err
}
