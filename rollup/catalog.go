package rollup

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/internal/pgcatalog"
	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/pipeline"
)

// relation is a table or view as the catalog knows it.
type relation struct {
	kind    pgcatalog.Kind    // r, p, v, m, f; "" when there is none
	types   map[string]string // column -> type as SQL writes it
	tz      map[string]bool   // column -> is a timestamptz
	date    map[string]bool   // column -> is a date
	uniques [][]string        // sorted column sets of the unique indexes
}

func readRelation(ctx context.Context, tx pgx.Tx, r pg.Relation) (*relation, error) {
	rel := &relation{types: map[string]string{}, tz: map[string]bool{}, date: map[string]bool{}}
	c, found, err := pgcatalog.Lookup(ctx, tx, r)
	if err != nil || !found {
		return rel, err
	}
	rel.kind = c.Kind
	cols, err := pgcatalog.Columns(ctx, tx, c.OID)
	if err != nil {
		return nil, err
	}
	for _, col := range cols {
		rel.types[col.Name], rel.tz[col.Name] = col.Type, col.TypeOID == pgtype.TimestamptzOID
		rel.date[col.Name] = col.TypeOID == pgtype.DateOID
	}
	rel.uniques, err = pgcatalog.UniqueKeys(ctx, tx, c.OID)
	return rel, err
}

// verify checks the declaration against the catalog db reaches, in a
// transaction it rolls back, and names every fault in one
// X_JOB_ROLLUP_INVALID.
func (d *declaration[In]) verify(ctx context.Context, db pipeline.DB) error {
	tx, err := db.Begin(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	f, err := d.catalogFaults(ctx, tx)
	if err != nil {
		return err
	}
	if len(f) == 0 && d.stmt != "" {
		stmt, err := d.statementIn(ctx, tx)
		if err != nil {
			return err
		}
		if fault, err := d.plans(ctx, tx, stmt); err != nil {
			return err
		} else if fault != "" {
			f = append(f, fault)
		}
	}
	return f.err(d.o.Name)
}

// catalogFaults names what the catalog refuses: the target, its key and
// its columns, the zone, and the SQL source's table and columns.
func (d *declaration[In]) catalogFaults(ctx context.Context, tx pgx.Tx) (faults, error) {
	var f faults
	var known bool
	if err := tx.QueryRow(ctx, sqlZoneKnown, d.o.Bucket.Zone).Scan(&known); err != nil {
		return nil, err
	}
	f.add(!known, "Bucket.Zone "+d.o.Bucket.Zone+" is not in the server's time zone database")
	into, err := readRelation(ctx, tx, d.into)
	if err != nil {
		return nil, err
	}
	f.target(d.into, into, d.o.Key, d.o.Bucket)
	if d.o.Source == nil || into.kind == "" {
		return f, nil
	}
	src, err := readRelation(ctx, tx, d.src)
	if err != nil {
		return nil, err
	}
	f.sqlSource(d.src, src, *d.o.Source, into)
	return f, nil
}

// target checks the target table, its key's unique index and its bucket
// column.
func (f *faults) target(name pg.Relation, into *relation, key []string, b Bucket) {
	bucketCol := b.Column
	switch into.kind {
	case "":
		f.add(true, "Into "+name.String()+" does not exist")
		return
	case pgcatalog.Table, pgcatalog.PartitionedTable:
	default:
		f.add(true, "Into "+name.String()+" is "+into.kind.Noun()+", not a table")
		return
	}
	for _, k := range key {
		f.add(into.types[k] == "", "Into "+name.String()+" has no column "+k)
	}
	switch {
	case into.types[bucketCol] == "" || into.tz[bucketCol]:
	case into.date[bucketCol] && !b.Unit.Daily():
		f.add(true, "Bucket.Column "+bucketCol+" is date, which holds day and coarser buckets, not "+string(b.Unit)+" buckets: make it timestamp with time zone")
	case !into.date[bucketCol]:
		f.add(true, "Bucket.Column "+bucketCol+" is "+into.types[bucketCol]+", not timestamp with time zone (or date, for day and coarser buckets)")
	}
	sorted := slices.Sorted(slices.Values(key))
	f.add(!slices.ContainsFunc(into.uniques, func(u []string) bool { return slices.Equal(u, sorted) }),
		"no unique index on "+name.String()+" covers exactly the Key ("+strings.Join(key, ", ")+
			"): add a unique index or primary key on those columns")
}

// sqlSource checks the source table's columns and the target's value
// columns.
func (f *faults) sqlSource(name pg.Relation, src *relation, s Source, into *relation) {
	if src.kind == "" {
		f.add(true, "Source.Table "+name.String()+" does not exist")
		return
	}
	has := func(field, col string) {
		f.add(col != "" && src.types[col] == "", field+": "+name.String()+" has no column "+col)
	}
	has("Source.Time", s.Time)
	f.add(src.types[s.Time] != "" && !src.tz[s.Time],
		"Source.Time "+s.Time+" is "+src.types[s.Time]+", not timestamp with time zone")
	for _, g := range s.GroupBy {
		has("Source.GroupBy", g)
	}
	for i, a := range s.Aggregates {
		at := "Source.Aggregates[" + strconv.Itoa(i) + "]"
		has(at+".Column", a.Column)
		f.add(into.types[a.Into] == "", at+".Into: the target has no column "+a.Into)
	}
}

// plans asks the server to plan the generated statement (EXPLAIN, nothing
// runs) with placeholder values, and answers a fault when it does not: an
// aggregate that does not apply to its column's type, a value that does not
// fit its target column, a Where that does not parse.
func (d *declaration[In]) plans(ctx context.Context, tx pgx.Tx, stmt string) (string, error) {
	args := make([]any, whereParams(d.o.Source.Where), whereParams(d.o.Source.Where)+3)
	args = append(args, string(d.o.Bucket.Unit), d.o.Bucket.Zone, time.Now())
	sp, err := tx.Begin(ctx)
	if err != nil {
		return "", err
	}
	defer func() { _ = sp.Rollback(context.WithoutCancel(ctx)) }()
	_, err = sp.Exec(ctx, "explain "+stmt, args...)
	var pg *pgconn.PgError
	if errors.As(err, &pg) && (strings.HasPrefix(pg.Code, "42") || strings.HasPrefix(pg.Code, "22")) {
		return "the generated statement does not plan (" + errcode.ServerDetail(pg) + ": " + planFault(pg.Code) + ")", nil
	}
	return "", err
}

// planFault says in words what a planning SQLSTATE means for a rollup.
func planFault(code string) string {
	switch code {
	case "42883":
		return "an aggregate or an operator does not apply to its column's type"
	case "42804":
		return "a value's type does not fit its target column"
	case "42601":
		return "Source.Where does not parse"
	case "42703":
		return "Source.Where names a column the source lacks"
	case "42P10":
		return "no unique index matches the Key"
	case "42501":
		return "the database user may not read the source or write the target"
	}
	return "see the server's log for the statement"
}
