package backfill

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/internal/pgcatalog"
)

// plan is a pass's first step: what it walks and by what key, checked
// against the catalog once; a resumed run keeps it.
type plan struct {
	Target  string `json:"target"`
	From    string `json:"from"`
	Key     string `json:"key"`
	KeyType string `json:"keyType"`
	Cols    string `json:"cols,omitempty"`
	// Columns name the values of a Handle's rows.
	Columns []string `json:"columns,omitempty"`
	Total   *int64   `json:"total,omitempty"`
}

func (p plan) source() source {
	return source{from: p.From, key: p.Key, keyType: p.KeyType, cols: p.Cols}
}

// makePlan reads the catalog for the declaration, refusing what cannot be
// walked or run, and checks the statement against the server.
func (d *declaration[In]) makePlan(ctx context.Context, tx pgx.Tx) (plan, error) {
	var p plan
	var err error
	if d.o.Query != "" {
		p, err = d.queryPlan(ctx, tx)
	} else {
		p, err = d.tablePlan(ctx, tx)
	}
	if err != nil {
		return p, err
	}
	return p, d.checkStatement(ctx, tx)
}

func (d *declaration[In]) tablePlan(ctx context.Context, tx pgx.Tx) (plan, error) {
	c, found, err := pgcatalog.Lookup(ctx, tx, d.o.Table)
	if err != nil {
		return plan{}, err
	}
	if !found || !c.Kind.IsTable() {
		return plan{}, invalid(d.name, "%s is not a table the database holds", d.o.Table)
	}
	cols, err := pgcatalog.Columns(ctx, tx, c.OID)
	if err != nil {
		return plan{}, err
	}
	key, err := d.tableKey(ctx, tx, c.OID, cols)
	if err != nil {
		return plan{}, err
	}
	p := plan{Target: d.o.Table.String(), From: d.o.Table.Quoted() + " s", Key: pgcatalog.Quote(key.Name), KeyType: key.Type}
	if err := d.columns(&p, key.Name, names(cols)); err != nil {
		return p, err
	}
	err = tx.QueryRow(ctx, sqlEstimate, c.OID).Scan(&p.Total)
	return p, err
}

// tableKey answers the key column: the declared one, or the primary key
// when it is one column. It must be NOT NULL and unique by itself.
func (d *declaration[In]) tableKey(ctx context.Context, tx pgx.Tx, oid uint32, cols []pgcatalog.Column) (pgcatalog.Column, error) {
	name := d.o.Key
	if name == "" {
		pk, err := pgcatalog.PrimaryKey(ctx, tx, oid)
		if err != nil {
			return pgcatalog.Column{}, err
		}
		if len(pk) != 1 {
			return pgcatalog.Column{}, invalid(d.name, "%s has no one-column primary key and no Key is declared", d.o.Table)
		}
		name = pk[0]
	}
	i := slices.IndexFunc(cols, func(c pgcatalog.Column) bool { return c.Name == name })
	if i < 0 {
		return pgcatalog.Column{}, invalid(d.name, "the key %s is not a column of %s", name, d.o.Table)
	}
	if !cols[i].NotNull {
		return pgcatalog.Column{}, invalid(d.name, "the key %s of %s is nullable", name, d.o.Table)
	}
	uniques, err := pgcatalog.UniqueKeys(ctx, tx, oid)
	if err != nil {
		return pgcatalog.Column{}, err
	}
	if !slices.ContainsFunc(uniques, func(u []string) bool { return len(u) == 1 && u[0] == name }) {
		return pgcatalog.Column{}, invalid(d.name, "no unique index of %s is on the key %s alone", d.o.Table, name)
	}
	return cols[i], nil
}

// queryPlan describes the query (it is planned, not run) for its key and
// columns.
func (d *declaration[In]) queryPlan(ctx context.Context, tx pgx.Tx) (plan, error) {
	p := plan{Target: "query", From: "(" + d.o.Query + ") s", Key: pgcatalog.Quote(d.o.Key)}
	var fields []pgconn.FieldDescription
	err := savepoint(ctx, tx, func(tx pgx.Tx) error {
		sd, err := tx.Prepare(ctx, "", "select * from "+p.From)
		if err == nil {
			fields = sd.Fields
		}
		return err
	})
	if err != nil {
		return p, d.refusedStatement("Query", err)
	}
	var cols []string
	var keyOID uint32
	for _, f := range fields {
		cols = append(cols, f.Name)
		if f.Name == d.o.Key {
			keyOID = f.DataTypeOID
		}
	}
	if keyOID == 0 {
		return p, invalid(d.name, "the key %s is not a column the query answers", d.o.Key)
	}
	if err := d.columns(&p, d.o.Key, cols); err != nil {
		return p, err
	}
	return p, tx.QueryRow(ctx, sqlTypeName, keyOID).Scan(&p.KeyType)
}

// columns settles the columns a Handle is handed: the declared ones, each
// a column of the source, or the key alone.
func (d *declaration[In]) columns(p *plan, key string, have []string) error {
	if d.o.Handle == nil {
		return nil
	}
	p.Columns = d.o.Columns
	if len(p.Columns) == 0 {
		p.Columns = []string{key}
	}
	for _, c := range p.Columns {
		if !slices.Contains(have, c) {
			return invalid(d.name, "Columns names %s, which is not a column of the source", c)
		}
	}
	p.Cols = columnList(p.Columns)
	return nil
}

// checkStatement plans the SQL statement in a savepoint: the server refuses
// a column or a table it does not hold, and answers how many parameters it
// takes.
func (d *declaration[In]) checkStatement(ctx context.Context, tx pgx.Tx) error {
	if d.o.SQL == "" {
		return nil
	}
	var params int
	err := savepoint(ctx, tx, func(tx pgx.Tx) error {
		sd, err := tx.Prepare(ctx, "", d.o.SQL)
		if err == nil {
			params = len(sd.ParamOIDs)
		}
		return err
	})
	if err != nil {
		return d.refusedStatement("SQL", err)
	}
	if params < 2 {
		return invalid(d.name, "SQL takes %d parameters: $1 and $2 are the batch's first and last keys", params)
	}
	return nil
}

// refusedStatement words a statement the server would not plan, without its
// message (which can quote values).
func (d *declaration[In]) refusedStatement(what string, err error) error {
	var pg *pgconn.PgError
	if !errors.As(err, &pg) || !(strings.HasPrefix(pg.Code, "42") || pg.Code == "0A000") {
		return err
	}
	return errcode.Wrap(err, errcode.BackfillInvalid, "backfill %s: the server refuses to plan %s (%s)", label(d.name), what, errcode.ServerDetail(pg)).
		WithFix("correct " + what + ": the SQLSTATE names the fault (42703 an unknown column, 42P01 an unknown table, 42601 a syntax error)")
}

func savepoint(ctx context.Context, tx pgx.Tx, fn func(pgx.Tx) error) error {
	sp, err := tx.Begin(ctx)
	if err != nil {
		return err
	}
	if err := fn(sp); err != nil {
		_ = sp.Rollback(ctx)
		return err
	}
	return sp.Rollback(ctx)
}

func names(cols []pgcatalog.Column) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Name
	}
	return out
}
