package pgtail

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/internal/sqlfile"
)

//go:embed queries/*.sql
var queryFiles embed.FS

var mustQuery = sqlfile.Reader(queryFiles, "pgtail")

var (
	sqlTable     = mustQuery("table")
	sqlSequence  = mustQuery("sequence")
	sqlColumns   = mustQuery("columns")
	sqlLastValue = mustQuery("last_value")
	sqlWriters   = mustQuery("writers")
	sqlWriting   = mustQuery("writing")
)

// table is the followed table as the catalog knows it.
type table struct {
	oid      uint32
	sequence uint32
	columns  []string
}

// resolve checks the table, its id column, the sequence feeding it and the
// columns asked for.
func resolve[T any](ctx context.Context, pool *pgxpool.Pool, o Options[T]) (*table, error) {
	var kind string
	var idType, owned *string
	tb := &table{}
	err := pool.QueryRow(ctx, sqlTable, ident(o.Schema, o.Table), o.ID).Scan(&tb.oid, &kind, &idType, &owned)
	switch {
	case errors.Is(err, pgx.ErrNoRows) || err == nil && kind != "r":
		return nil, invalid(o, "is not a table", "name an existing (unpartitioned) table, with its schema if it is not on the search path")
	case err != nil:
		return nil, sourceErr(ctx, o, "read the catalog", err)
	case idType == nil:
		return nil, invalid(o, "has no column "+o.ID, "name the ordered id column in ID")
	case !slices.Contains([]string{"smallint", "integer", "bigint"}, *idType):
		return nil, invalid(o, "has an id column that is not an integer", "follow an integer column fed by a sequence")
	}
	if err := readSequence(ctx, pool, o, owned, tb); err != nil {
		return nil, err
	}
	rows, _ := pool.Query(ctx, sqlColumns, tb.oid)
	all, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, sourceErr(ctx, o, "read the columns", err)
	}
	tb.columns = o.Columns
	if len(tb.columns) == 0 {
		tb.columns = all
	}
	for _, c := range tb.columns {
		if !slices.Contains(all, c) {
			return nil, invalid(o, "has no column "+c, "name only the table's columns in Columns")
		}
	}
	return tb, nil
}

// readSequence finds the sequence feeding the id column and refuses one the
// horizon cannot trust: counting down, or handing values out from a cache.
func readSequence[T any](ctx context.Context, pool *pgxpool.Pool, o Options[T], owned *string, tb *table) error {
	name := o.Sequence
	if name == "" {
		if owned == nil {
			return invalid(o, "has an id column that owns no sequence", "follow a serial, bigserial or identity column, or name its sequence in Sequence")
		}
		name = *owned
	}
	var increment, cache int64
	err := pool.QueryRow(ctx, sqlSequence, name).Scan(&tb.sequence, &increment, &cache)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return invalid(o, "is fed by no sequence of that name", "name the sequence feeding the id column in Sequence")
	case err != nil:
		return sourceErr(ctx, o, "read the sequence", err)
	case increment <= 0:
		return invalid(o, "is fed by a sequence that does not count up", "follow a column whose sequence has a positive increment")
	case cache != 1:
		return invalid(o, "is fed by a sequence with a cache", "ALTER SEQUENCE ... CACHE 1: a cached value can be used after a later one is read")
	}
	return nil
}

func invalid[T any](o Options[T], what, fix string) error {
	return errcode.New(errcode.ConsumerSourceInvalid, "table tail: %s %s", label(o), what).WithFix(fix)
}

// sourceErr wraps a database error once, naming the table and the step,
// never quoting the server's message: a statement the server refuses for a
// name it does not know or may not read (SQLSTATE class 42) is
// X_CONSUMER_SOURCE_INVALID, any other failure is coded by
// [errcode.Postgres].
func sourceErr[T any](ctx context.Context, o Options[T], what string, err error) error {
	if err == nil {
		return nil
	}
	if _, ok := errcode.As(err); ok {
		return err
	}
	var pg *pgconn.PgError
	if errors.As(err, &pg) && strings.HasPrefix(pg.Code, "42") {
		return errcode.Wrap(err, errcode.ConsumerSourceInvalid, "table tail: %s: %s: SQLSTATE %s", label(o), what, pg.Code).
			WithFix("correct the tail: the table, its columns or the Where filter")
	}
	return errcode.Postgres(ctx, err, "table tail: "+label(o)+": "+what)
}

func label[T any](o Options[T]) string {
	if o.Schema == "" {
		return o.Table
	}
	return o.Schema + "." + o.Table
}

func ident(schema, name string) string {
	if schema == "" {
		return pgx.Identifier{name}.Sanitize()
	}
	return pgx.Identifier{schema, name}.Sanitize()
}

// pageSQL reads up to a limit of rows after one id and up to another, in id
// order: the id first, then the columns. Where's own parameters come first.
func pageSQL[T any](tb *table, o Options[T], nargs int) string {
	cols := make([]string, len(tb.columns))
	for i, c := range tb.columns {
		cols[i] = pgx.Identifier{c}.Sanitize()
	}
	id := pgx.Identifier{o.ID}.Sanitize()
	return fmt.Sprintf("select %s, %s from %s where %s > $%d and %s <= $%d%s order by %s limit $%d",
		id, strings.Join(cols, ", "), ident(o.Schema, o.Table), id, nargs+1, id, nargs+2, whereSQL(o), id, nargs+3)
}

// lagSQL counts the rows after an id, up to a cap.
func lagSQL[T any](o Options[T], nargs int) string {
	id := pgx.Identifier{o.ID}.Sanitize()
	return fmt.Sprintf("select count(*) from (select 1 from %s where %s > $%d%s limit $%d) s",
		ident(o.Schema, o.Table), id, nargs+1, whereSQL(o), nargs+2)
}

func whereSQL[T any](o Options[T]) string {
	if strings.TrimSpace(o.Where) == "" {
		return ""
	}
	return " and (" + o.Where + ")"
}
