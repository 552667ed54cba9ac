package pgtail

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/internal/pgcatalog"
	"github.com/pipekit/pipe/internal/sqlfile"
	"github.com/pipekit/pipe/pg"
)

//go:embed queries/*.sql
var queryFiles embed.FS

var mustQuery = sqlfile.Reader(queryFiles, "pgtail")

var (
	sqlOwnedSequence = mustQuery("owned_sequence")
	sqlSequence      = mustQuery("sequence")
	sqlLastValue     = mustQuery("last_value")
	sqlWriters       = mustQuery("writers")
	sqlWriting       = mustQuery("writing")
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
	rel, found, err := pgcatalog.Lookup(ctx, pool, o.Table)
	switch {
	case errors.Is(err, errcode.NameInvalid):
		return nil, invalid(o, "is not a name PostgreSQL keeps: "+pgcatalog.Fault(err), "name the table as PostgreSQL knows it")
	case err != nil:
		return nil, sourceErr(ctx, o, "read the catalog", err)
	case !found || rel.Kind != pgcatalog.Table:
		return nil, invalid(o, "is not a table", "name an existing (unpartitioned) table, with its schema if it is not on the search path")
	}
	cols, err := pgcatalog.Columns(ctx, pool, rel.OID)
	if err != nil {
		return nil, sourceErr(ctx, o, "read the columns", err)
	}
	id := slices.IndexFunc(cols, func(c pgcatalog.Column) bool { return c.Name == o.ID })
	switch {
	case id < 0:
		return nil, invalid(o, "has no column "+o.ID, "name the ordered id column in ID")
	case !slices.Contains([]string{"smallint", "integer", "bigint"}, cols[id].Type):
		return nil, invalid(o, "has an id column that is not an integer", "follow an integer column fed by a sequence")
	}
	tb := &table{oid: rel.OID}
	if err := readSequence(ctx, pool, o, tb); err != nil {
		return nil, err
	}
	var all []string
	for _, c := range cols {
		all = append(all, c.Name)
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
func readSequence[T any](ctx context.Context, pool *pgxpool.Pool, o Options[T], tb *table) error {
	seq := o.Sequence
	if seq.IsZero() {
		var owned *string
		if err := pool.QueryRow(ctx, sqlOwnedSequence, o.Table.Quoted(), o.ID).Scan(&owned); err != nil {
			return sourceErr(ctx, o, "read the id column's sequence", err)
		}
		if owned == nil {
			return invalid(o, "has an id column that owns no sequence", "follow a serial, bigserial or identity column, or name its sequence in Sequence")
		}
		var err error
		if seq, err = pg.ParseRelation(*owned); err != nil {
			return sourceErr(ctx, o, "read the id column's sequence", err)
		}
	}
	rel, found, err := pgcatalog.Lookup(ctx, pool, seq)
	switch {
	case errors.Is(err, errcode.NameInvalid):
		return invalid(o, "is fed by a sequence whose name PostgreSQL would not keep: "+pgcatalog.Fault(err), "name the sequence as PostgreSQL knows it")
	case err != nil:
		return sourceErr(ctx, o, "read the sequence", err)
	case !found || rel.Kind != pgcatalog.Sequence:
		return invalid(o, "is fed by no sequence of that name", "name the sequence feeding the id column in Sequence")
	}
	tb.sequence = rel.OID
	var increment, cache int64
	if err := pool.QueryRow(ctx, sqlSequence, rel.OID).Scan(&increment, &cache); err != nil {
		return sourceErr(ctx, o, "read the sequence", err)
	}
	switch {
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
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && strings.HasPrefix(pgErr.Code, "42") {
		return errcode.Wrap(err, errcode.ConsumerSourceInvalid, "table tail: %s: %s: SQLSTATE %s", label(o), what, pgErr.Code).
			WithFix("correct the tail: the table, its columns or the Where filter")
	}
	return errcode.Postgres(ctx, err, "table tail: "+label(o)+": "+what)
}

func label[T any](o Options[T]) string { return o.Table.String() }

// pageSQL reads up to a limit of rows after one id and up to another, in id
// order: the id first, then the columns. Where's own parameters come first.
func pageSQL[T any](tb *table, o Options[T], nargs int) string {
	id := pgcatalog.Quote(o.ID)
	return fmt.Sprintf("select %s, %s from %s where %s > $%d and %s <= $%d%s order by %s limit $%d",
		id, pgcatalog.QuoteList(tb.columns), o.Table.Quoted(), id, nargs+1, id, nargs+2, whereSQL(o), id, nargs+3)
}

// lagSQL counts the rows after an id, up to a cap.
func lagSQL[T any](o Options[T], nargs int) string {
	id := pgcatalog.Quote(o.ID)
	return fmt.Sprintf("select count(*) from (select 1 from %s where %s > $%d%s limit $%d) s",
		o.Table.Quoted(), id, nargs+1, whereSQL(o), nargs+2)
}

func whereSQL[T any](o Options[T]) string {
	if strings.TrimSpace(o.Where) == "" {
		return ""
	}
	return " and (" + o.Where + ")"
}
