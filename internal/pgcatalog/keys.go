package pgcatalog

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// PrimaryKey answers the columns of the relation's primary key, in key
// order; none without one.
func PrimaryKey(ctx context.Context, q Querier, oid uint32) ([]string, error) {
	rows, _ := q.Query(ctx, sqlPrimaryKey, oid)
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// UniqueKeys answers the column sets of the relation's unique, non-partial,
// plain-column indexes (its primary key among them), each sorted: an
// upsert's conflict target must be one of them.
func UniqueKeys(ctx context.Context, q Querier, oid uint32) ([][]string, error) {
	rows, _ := q.Query(ctx, sqlUniqueKeys, oid)
	return pgx.CollectRows(rows, pgx.RowTo[[]string])
}
