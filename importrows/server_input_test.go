package importrows_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/importrows"
)

// fidelityDDL is a table of every kind of type: ones pipe's own coercion
// reads, and ones it leaves to the server (a domain, an enum, inet, a
// range). Both twins, pipe's and COPY's, are made of it.
const fidelityDDL = `
create domain positive as int check (value > 0);
create type mood as enum ('ok', 'sad');
create domain short as varchar(3);
create table %[1]s (
	id int primary key, ts timestamp, d date, tz timestamptz, iv interval,
	n numeric(6,2), b boolean, arr int[], r int4range, ip inet, m mood, p positive, v varchar(3), s short);`

// serverCSV holds values pipe's coercion refuses and PostgreSQL reads
// (slashes in dates, words in intervals, ' 1e2' for numeric...), values
// both refuse, and values of the types only the server knows.
const serverCSV = "id,ts,d,tz,iv,n,b,arr,r,ip,m,p,v,s\n" +
	"1,2015/01/01 01:00:00,01/31/2015,2015/01/01 01:00:00+02,1 day 2 hours,1e2,TRUE,\"{1, 2}\",\"[1,5)\",10.0.0.1,ok,5,abc,xy\n" +
	"2,2015-01-01 01:00:00,2015-01-31,2015-01-01 01:00:00Z,P1D,12.345,yes,{},empty,::1,sad,1,ab,\n" +
	"3,January 8 1999 04:05:06,Jan 8 1999,1999-01-08 04:05:06 PST,@ 1 hour ago,  7 ,off,,\"(1,3]\",10/8,,,,\n" +
	"4,not a time,,,,,,,,,,,,\n" +
	"5,,2015-02-30,,,,,,,,,,,\n" +
	"6,,,,,,,,,,meh,,,\n" +
	"7,,,,,,,,,,,-1,,\n" +
	"8,,,,,,,,,300.300.0.1,,,,\n" +
	"9,,,,,,,,,,,,abcd,\n" +
	"10,,,,,12345.6,,,,,,,,\n" +
	"11,epoch,infinity,-infinity,,NaN,,\"{1,NULL}\",,,,,,\n" +
	"12,,,,,,,,,,,,,abcd\n" +
	"13,,,,,,,,,,,,,abc\n"

// Every value PostgreSQL's COPY takes lands as COPY lands it, and every row
// COPY refuses is refused per row, by line, with no value in the report.
func TestImportAsksTheServerBeforeRefusing(t *testing.T) {
	b := setup(t, fmt.Sprintf(fidelityDDL, "pipe_side")+"create table copy_side (like pipe_side including all);")
	in := b.put(t, "v.csv", []byte(serverCSV))
	d, res := run(t, b.pool, importrows.MustNew(fileKey, tableOptions("pipe_side", "id")), in)
	if d.State != "done" {
		t.Fatalf("%s %+v", d.State, d.LastError)
	}
	refusedByCopy := copyRowByRow(t, b.pool, "copy_side", serverCSV)
	var refusedByPipe []int
	for _, r := range readReport(t, b, d.RunID) {
		if r["code"] != "X_IMPORT_FIELD_INVALID" {
			t.Errorf("refusal %v", r)
		}
		refusedByPipe = append(refusedByPipe, int(r["line"].(float64)))
	}
	slices.Sort(refusedByPipe)
	if !slices.Equal(refusedByPipe, refusedByCopy) || res.Refused != int64(len(refusedByCopy)) {
		t.Fatalf("pipe refused lines %v (%d), COPY %v", refusedByPipe, res.Refused, refusedByCopy)
	}
	if res.Rows != int64(strings.Count(serverCSV, "\n")-1-len(refusedByCopy)) {
		t.Fatalf("rows %d", res.Rows)
	}
	requireSameTables(t, b.pool, "pipe_side", "copy_side")
}

// copyRowByRow COPYs each data line of doc into table alone, as COPY in one
// piece would take or refuse it, and answers the lines it refused.
func copyRowByRow(t *testing.T, pool *pgxpool.Pool, table, doc string) []int {
	t.Helper()
	ctx := context.Background()
	var refused []int
	for i, line := range strings.Split(strings.TrimSuffix(doc, "\n"), "\n")[1:] {
		conn, err := pool.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		_, err = conn.Conn().PgConn().CopyFrom(ctx, strings.NewReader(line+"\n"), "copy "+table+" from stdin (format csv)")
		conn.Release()
		if err != nil {
			refused = append(refused, i+2)
		}
	}
	return refused
}

// requireSameTables fails unless a and b hold the same rows, compared as
// their text.
func requireSameTables(t *testing.T, pool *pgxpool.Pool, a, b string) {
	t.Helper()
	for _, q := range []string{
		fmt.Sprintf("select count(*) from (select * from %s except all select * from %s) x", a, b),
		fmt.Sprintf("select count(*) from (select * from %s except all select * from %s) x", b, a),
	} {
		var n int
		if err := pool.QueryRow(context.Background(), q).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Fatalf("%d rows differ: %s\n%s", n, q, dump(t, pool, a, b))
		}
	}
	var n int
	if err := pool.QueryRow(context.Background(), "select count(*) from "+a).Scan(&n); err != nil || n == 0 {
		t.Fatalf("%s has %d rows (%v)", a, n, err)
	}
}

// dump shows both tables' rows, for a failure's message.
func dump(t *testing.T, pool *pgxpool.Pool, tables ...string) string {
	var out []string
	for _, table := range tables {
		rows, err := pool.Query(context.Background(), "select t::text from "+table+" t order by 1")
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var s string
			_ = rows.Scan(&s)
			out = append(out, table+": "+s)
		}
		rows.Close()
	}
	return strings.Join(out, "\n")
}
