package rollup

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/internal/pgcatalog"
	"github.com/pipekit/pipe/pg"
)

// upsertPoints asks the Points function for the run's points, checks them
// and writes them all in one upsert: the points go as one JSON parameter,
// read back with each target column's type.
func (d *declaration[In]) upsertPoints(ctx context.Context, tx pgx.Tx, in In, res *Result) error {
	pts, err := d.o.Points(ctx, Query[In]{Tx: tx, Since: res.Since, Now: res.Now, Unit: d.o.Bucket.Unit, Location: d.loc, Input: in})
	if err != nil {
		return err
	}
	into, err := readRelation(ctx, tx, d.into)
	if err != nil {
		return err
	}
	if into.kind == "" {
		return d.explain(ctx, tx, &pgconn.PgError{Code: "42P01"})
	}
	cols, err := d.pointColumns(pts, res, into)
	if err != nil {
		return err
	}
	rows := make([]map[string]any, len(pts))
	for i, p := range pts {
		rows[i] = maps.Clone(p.Values)
		rows[i][d.o.Bucket.Column] = p.Bucket.UTC()
		if into.date[d.o.Bucket.Column] {
			rows[i][d.o.Bucket.Column] = p.Bucket.In(d.loc).Format(time.DateOnly) // the bucket's first local day
		}
	}
	doc, err := json.Marshal(rows)
	if err != nil {
		return errcode.Wrap(err, errcode.RollupPointInvalid, "rollup %s: a point's values do not encode as JSON", d.o.Name).
			WithFix("answer values JSON can hold: numbers, strings, booleans, times")
	}
	res.Rows = int64(len(pts))
	err = tx.QueryRow(ctx, pointsStatement(d.into, cols, into.types, d.o.Key), doc).Scan(&res.Buckets, &res.Written)
	var pg *pgconn.PgError
	if errors.As(err, &pg) && (pg.Code == "21000" || strings.HasPrefix(pg.Code, "22")) {
		return errcode.Wrap(err, errcode.RollupPointInvalid, "rollup %s: the points do not write (%s: %s)", d.o.Name, errcode.ServerDetail(pg), pointFault(pg.Code)).
			WithFix("answer one point a key, with values of the target columns' types")
	}
	return err
}

// pointColumns checks every point — a bucket's first instant, in the
// window, the first point's columns, which the target has and which hold
// the key — and answers the columns written: the key's, then the values'.
func (d *declaration[In]) pointColumns(pts []Point, res *Result, into *relation) ([]string, error) {
	if len(pts) == 0 {
		return d.o.Key, nil
	}
	names := slices.Sorted(maps.Keys(pts[0].Values))
	for i, p := range pts {
		var fault string
		switch {
		case !d.o.Bucket.Unit.Start(p.Bucket, d.loc).Equal(p.Bucket):
			fault = "is not the first instant of a " + string(d.o.Bucket.Unit) + " in " + d.o.Bucket.Zone
		case p.Bucket.Before(res.Since):
			fault = "is before the run's window: its bucket is not read whole"
		case !slices.Equal(slices.Sorted(maps.Keys(p.Values)), names):
			fault = "names other columns than the first point"
		}
		if fault != "" {
			return nil, d.pointErr(fmt.Sprintf("point %d %s", i, fault))
		}
	}
	cols := []string{}
	for _, k := range d.o.Key {
		if k != d.o.Bucket.Column && !slices.Contains(names, k) {
			return nil, d.pointErr("the points lack the key column " + k)
		}
	}
	for _, n := range names {
		switch {
		case n == d.o.Bucket.Column:
			return nil, d.pointErr("a point's Values name the bucket column " + n + ": give it as Point.Bucket")
		case into.types[n] == "":
			return nil, d.pointErr("the target has no column " + n)
		case !slices.Contains(d.o.Key, n):
			cols = append(cols, n)
		}
	}
	return append(slices.Clone(d.o.Key), cols...), nil
}

func (d *declaration[In]) pointErr(fault string) error {
	return errcode.New(errcode.RollupPointInvalid, "rollup %s: %s", d.o.Name, fault).
		WithFix("answer points whose Bucket is a bucket's first instant (rollup.Unit.Start) at or after Query.Since, all with the same columns")
}

// pointsStatement reads the JSON points as typed rows and upserts them.
func pointsStatement(into pg.Relation, cols []string, types map[string]string, key []string) string {
	defs := make([]string, len(cols))
	for i, c := range cols {
		defs[i] = pgcatalog.Quote(c) + " " + types[c]
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "with points as (\n    select * from jsonb_to_recordset($1::jsonb) as p(%s)\n),\n", strings.Join(defs, ", "))
	writeUpsert(&sb, into, key, cols[len(key):])
	sb.WriteString("select (select count(*) from points),\n       (select count(*) from written)")
	return sb.String()
}

func pointFault(code string) string {
	if code == "21000" {
		return "two points have one key"
	}
	return "a value does not read as its column's type"
}
