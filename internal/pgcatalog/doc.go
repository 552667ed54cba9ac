// Package pgcatalog reads what every factory asks PostgreSQL's catalog:
// the relation a [pg.Relation] names, its columns, its primary and unique
// keys; and quotes the column names a factory puts in SQL. Its statements
// live in queries/*.sql, one a file.
//
// Every read takes a [Querier] — a pool, a connection or the caller's
// transaction — so a factory reads the catalog in the transaction its step
// writes in, and a check can run in one it rolls back.
package pgcatalog

import (
	"context"
	"embed"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/internal/sqlfile"
)

// Querier is what the catalog is read through: a pool, a connection or a
// transaction.
type Querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

//go:embed queries/*.sql
var queryFiles embed.FS

var mustQuery = sqlfile.Reader(queryFiles, "pgcatalog")

var (
	sqlRelation   = mustQuery("relation")
	sqlColumns    = mustQuery("columns")
	sqlPrimaryKey = mustQuery("primary_key")
	sqlUniqueKeys = mustQuery("unique_keys")
)
