package exportrows_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/importrows"
	"github.com/pipekit/pipe/pg"
)

// fidelityTypes are the user-defined types of the fidelity table.
const fidelityTypes = `create type mood as enum ('sad', 'ok', 'with space', 'quo"te', 'com,ma');
	create domain posint as integer check (value > 0);
	create domain shortname as varchar(10);
	create domain tagset as text[];
	create type pair as (a integer, b text, c numeric(6,2))`

// fidelityColumn is one column of the fidelity table: its type and the
// edge values (SQL literals) its rows take in turn.
type fidelityColumn struct {
	typ  string
	vals []string
}

// fidelityColumns holds a column of every column type PostgreSQL ships,
// with the values at its edges.
var fidelityColumns = []fidelityColumn{
	{"boolean", []string{"true", "false"}},
	{"smallint", []string{"0", "-32768", "32767"}},
	{"integer", []string{"-2147483648", "2147483647", "0"}},
	{"bigint", []string{"-9223372036854775808", "9223372036854775807", "1"}},
	{"numeric", []string{"'NaN'", "0", "-0.000000000000000000000000000001", "1e100", "123456789012345678901234567890.123456789", "-5", "0.10"}},
	{"numeric(12,2)", []string{"1234567890.12", "-0.01", "0", "'NaN'"}},
	{"numeric(50,5)", []string{"123456789012345678901234567890123456789012345.12345", "-0.00001"}},
	{"numeric(5,-2)", []string{"12300", "-9999900"}},
	{"real", []string{"'NaN'", "'Infinity'", "'-Infinity'", "'-0'", "'1.4e-45'", "'3.4028235e38'", "'1.1754942e-38'", "'0.1'", "'16777217'"}},
	{"double precision", []string{"'NaN'", "'Infinity'", "'-Infinity'", "'-0'", "'4.9e-324'", "'2.2250738585072014e-308'", "'1.7976931348623157e308'", "'0.1'", "'1e21'", "'123456789.125'", "'1e-05'"}},
	{"money", []string{"0", "'-92233720368547758.08'", "'92233720368547758.07'", "12.34"}},
	{"text", []string{"'=1+1'", "'-x'", "''", "'Zoë 東京 🚀'", `e'two\nlines'`, `e'cr\r\nlf'`, `'say "hi", ok'`, `e'back\\slash'`, `'\N'`, `'NULL'`, `'  spaced  '`, `e'tab\there'`, `'\.'`, `'null'`, `'{"a":1}'`, `'42'`}},
	{"character varying(5)", []string{"'abcde'", "''", "'é東京🚀x'", "' '"}},
	{"character(3)", []string{"'a'", "'abc'", "''", "'東京'"}},
	{"name", []string{"'pg_class'", "'with space'", "''"}},
	{"bytea", []string{`'\x'`, `'\x00ff10'`, `decode(repeat('00ff', 300), 'hex')`}},
	{"date", []string{"'infinity'", "'-infinity'", "'4713-01-01 BC'", "'5874897-12-31'", "'2024-02-29'", "'0001-01-01'", "'0001-12-31 BC'"}},
	{"time", []string{"'00:00:00'", "'23:59:59.999999'", "'24:00:00'", "'12:34:56.5'"}},
	{"time(3)", []string{"'12:34:56.123'", "'00:00:00'"}},
	{"time with time zone", []string{"'00:00:00+00'", "'23:59:59.999999-15:59'", "'12:00:00+05:45'", "'04:05:06-03:30'", "'24:00:00+00'"}},
	{"timestamp", []string{"'infinity'", "'-infinity'", "'4713-01-01 00:00:00 BC'", "'294276-12-31 23:59:59.999999'", "'2026-03-01 12:00:00.000001'", "'1999-12-31 23:59:59.999999'", "'0001-01-01 00:00:00'"}},
	{"timestamp with time zone", []string{"'infinity'", "'-infinity'", "'2026-03-01 12:00:00.123456+05:45'", "'2026-11-01 01:30:00 America/St_Johns'", "'2026-03-01 12:00:00 Asia/Kathmandu'", "'0044-03-15 12:00:00+00 BC'", "'1900-01-01 00:00:00 America/St_Johns'", "'294276-12-31 23:59:59.999999+00'"}},
	{"timestamp(0) with time zone", []string{"'2026-03-01 12:00:00+05:45'"}},
	{"interval", []string{"'0'", "'1 year 2 months 3 days 04:05:06.789'", "'-1 day +02:00:00'", "'178000000 years'", "'-178000000 years'", "'1 microsecond'", "'-1 minute'", "'1 mon -1 day'"}},
	{"uuid", []string{"'00000000-0000-0000-0000-000000000000'", "'ffffffff-ffff-ffff-ffff-ffffffffffff'", "'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'"}},
	{"json", []string{`'"a string"'`, "'42'", `'"42"'`, `'{"b":1,  "a":2, "a":3}'`, "'[ 1 , 2 ]'", "'null'", "'true'", `'"é\u00e9"'`, `'{"nested": {"x": [1, "two", null]}}'`, "'1.0e+2'"}},
	{"jsonb", []string{`'"a string"'`, "'42'", `'"true"'`, `'{"b":1, "a":2}'`, "'[]'", "'null'", "'false'", `'"{\"a\":1}"'`, "'1.50'"}},
	{"xml", []string{`'<a b="1">text &amp; more</a>'`, "'plain text'", "'<r/><r/>'"}},
	{"inet", []string{"'192.168.1.1/24'", "'::1'", "'10.0.0.1'", "'2001:db8::1/64'", "'::ffff:1.2.3.4'"}},
	{"cidr", []string{"'10.0.0.0/8'", "'2001:db8::/32'", "'192.168.1.0/24'"}},
	{"macaddr", []string{"'08:00:2b:01:02:03'", "'ff:ff:ff:ff:ff:ff'"}},
	{"macaddr8", []string{"'08:00:2b:01:02:03:04:05'"}},
	{"point", []string{"'(1,2)'", "'(-1.5,1e300)'"}},
	{"line", []string{"'{1,-1,0}'"}},
	{"lseg", []string{"'[(0,0),(1,1)]'"}},
	{"box", []string{"'(1,1),(0,0)'"}},
	{"path", []string{"'((0,0),(1,1),(2,0))'", "'[(0,0),(1,1)]'"}},
	{"polygon", []string{"'((0,0),(1,1),(2,0))'"}},
	{"circle", []string{"'<(0,0),1.5>'"}},
	{"bit(4)", []string{"B'1010'", "B'0000'"}},
	{"bit varying", []string{"B''", "B'1'", "B'101010101010101010101'"}},
	{"tsvector", []string{"'the fat:1A cat:2B,3C'", `$$'it''s' 'back\\slash'$$`, "''"}},
	{"tsquery", []string{"'fat & (rat | !cat)'", "'a <-> b'", `$$'it''s':*$$`}},
	{"oid", []string{"0", "4294967295"}},
	{"\"char\"", []string{"'a'", "''", "'\\'"}},
	{"jsonpath", []string{"'$.a[*] ? (@ > 1)'", `'strict $."key with space"'`}},
	{"regclass", []string{"'pg_class'", "'src'"}},
	{"regtype", []string{"'integer'", "'mood[]'"}},
	{"regproc", []string{"'now'"}},
	{"regnamespace", []string{"'public'"}},
	{"regrole", []string{"'-'"}},
	{"xid", []string{"'0'", "'4294967295'"}},
	{"xid8", []string{"'0'", "'18446744073709551615'"}},
	{"cid", []string{"'7'"}},
	{"tid", []string{"'(0,1)'", "'(4294967295,65535)'"}},
	{"pg_snapshot", []string{"'10:20:10,14,15'"}},
	{"txid_snapshot", []string{"'10:20:'"}},
	{"int2vector", []string{"'1 2 3'", "''"}},
	{"oidvector", []string{"'23 25'"}},
	{"pg_lsn", []string{"'0/0'", "'FFFFFFFF/FFFFFFFF'", "'16/B374D848'"}},
	{"int4range", []string{"'empty'", "'[1,10)'", "'(,5)'", "'[3,)'", "'(,)'"}},
	{"int8range", []string{"'[-9223372036854775808,9223372036854775807)'"}},
	{"numrange", []string{"'[1.5,2.5]'", "'(,)'"}},
	{"tsrange", []string{`'["2026-01-01 00:00","2026-02-01 00:00")'`, "'[-infinity,infinity]'"}},
	{"tstzrange", []string{`'["2026-01-01 00:00+05:45",infinity)'`}},
	{"daterange", []string{"'[2026-01-01,2026-02-01)'"}},
	{"int4multirange", []string{"'{}'", "'{[1,3),[5,7)}'"}},
	{"int8multirange", []string{"'{[1,2]}'"}},
	{"nummultirange", []string{"'{[1.5,2.5]}'"}},
	{"datemultirange", []string{"'{[2026-01-01,2026-02-01)}'"}},
	{"tsmultirange", []string{`'{["2026-01-01 00:00",)}'`}},
	{"tstzmultirange", []string{`'{["2026-01-01 00:00+05:45",)}'`}},
	{"integer[]", []string{"'{{1,2},{3,4}}'", "'{}'", "'{NULL,1}'", "'[0:1]={1,2}'"}},
	{"text[]", []string{`'{"a,b","c\"d","{e}","NULL",NULL,""," x ","back\\\\slash"}'`, "'{}'", `'{{"a","b"},{"c","d"}}'`, `array[e'two\nlines']`}},
	{"numeric[]", []string{"'{1.5,NaN,NULL}'"}},
	{"double precision[]", []string{"'{NaN,Infinity,-Infinity,-0,4.9e-324}'"}},
	{"boolean[]", []string{"'{t,f,NULL}'"}},
	{"bytea[]", []string{`array['\x00ff'::bytea, null, '\x']`}},
	{"date[]", []string{"'{infinity,2024-02-29}'"}},
	{"timestamp with time zone[]", []string{`array['2026-03-01 12:00:00+05:45'::timestamptz, '-infinity']`}},
	{"uuid[]", []string{"'{00000000-0000-0000-0000-000000000000}'"}},
	{"jsonb[]", []string{`array['"s"'::jsonb, '{"a":[1]}', null]`}},
	{"json[]", []string{`array['"s"'::json, '{"b":1,"a":2}']`}},
	{"inet[]", []string{"'{10.0.0.1,::1}'"}},
	{"int4range[]", []string{`'{"[1,2)",empty}'`}},
	{"mood", []string{"'sad'", "'with space'", `'quo"te'`, "'com,ma'"}},
	{"mood[]", []string{`'{sad,"with space","quo\"te","com,ma"}'`}},
	{"posint", []string{"1", "2147483647"}},
	{"shortname", []string{"'x'", "'0123456789'"}},
	{"tagset", []string{"'{a,b}'", "'{}'"}},
	{"pair", []string{`'(1,"a,b",1.50)'`, "'(,,)'", `'(2,"",)'`}},
	{"pair[]", []string{`array['(1,"x y",2.00)'::pair, null]`}},
}

// fidelityException is a value that cannot come back as itself in one
// format, for the reason the README gives: the export refuses it with a
// code, or it comes back as want.
type fidelityException struct {
	format   exportrows.Format
	typ, val string
	want     string // an SQL literal; "" when the export refuses the value
}

var fidelityExceptions = []fidelityException{
	// The formula guard: free text that a spreadsheet would run gets a '.
	{exportrows.CSV, "text", "'=1+1'", `'''=1+1'`},
	{exportrows.CSV, "text", "'-x'", `'''-x'`},
	// NDJSON has one null: a json null reads back as SQL NULL.
	{exportrows.NDJSON, "json", "'null'", "null"},
	{exportrows.NDJSON, "jsonb", "'null'", "null"},
	// Parquet's DATE and TIMESTAMP have no infinity, TIMESTAMP counts
	// microseconds from 1970 in 64 bits, DECIMAL has no NaN, and a LIST
	// column is one level.
	{exportrows.Parquet, "date", "'infinity'", ""},
	{exportrows.Parquet, "date", "'-infinity'", ""},
	{exportrows.Parquet, "timestamp", "'infinity'", ""},
	{exportrows.Parquet, "timestamp", "'-infinity'", ""},
	{exportrows.Parquet, "timestamp with time zone", "'infinity'", ""},
	{exportrows.Parquet, "timestamp with time zone", "'-infinity'", ""},
	{exportrows.Parquet, "timestamp", "'294276-12-31 23:59:59.999999'", ""},
	{exportrows.Parquet, "timestamp with time zone", "'294276-12-31 23:59:59.999999+00'", ""},
	{exportrows.Parquet, "date[]", "'{infinity,2024-02-29}'", ""},
	{exportrows.Parquet, "timestamp with time zone[]", `array['2026-03-01 12:00:00+05:45'::timestamptz, '-infinity']`, ""},
	{exportrows.Parquet, "numeric(12,2)", "'NaN'", ""},
	{exportrows.Parquet, "integer[]", "'{{1,2},{3,4}}'", ""},
	{exportrows.Parquet, "text[]", `'{{"a","b"},{"c","d"}}'`, ""},
	// A JSON array and a Parquet list start at 1.
	{exportrows.NDJSON, "integer[]", "'[0:1]={1,2}'", ""},
	{exportrows.Parquet, "integer[]", "'[0:1]={1,2}'", ""},
}

// excepted reports whether v of type typ is an exception in format.
func excepted(format exportrows.Format, typ, v string) bool {
	return slices.ContainsFunc(fidelityExceptions, func(e fidelityException) bool {
		return e.format == format && e.typ == typ && e.val == v
	})
}

// fidelityDDL creates src with a column of every type, fills it with each
// column's edge values in turn, but format's exceptions (one row more, all
// NULL), creates dst like it, empty, and answers the columns and rows.
func fidelityDDL(format exportrows.Format) (string, []string, int) {
	var cols, defs []string
	vals := make([][]string, len(fidelityColumns))
	rows := 0
	for i, c := range fidelityColumns {
		name := fmt.Sprintf("c%02d", i)
		cols = append(cols, name)
		defs = append(defs, name+" "+c.typ)
		for _, v := range c.vals {
			if !excepted(format, c.typ, v) {
				vals[i] = append(vals[i], v)
			}
		}
		rows = max(rows, len(vals[i]))
	}
	var values []string
	for r := range rows + 1 {
		row := []string{fmt.Sprint(r + 1)}
		for i, c := range fidelityColumns {
			v := "null"
			if r < rows && len(vals[i]) > 0 {
				v = vals[i][r%len(vals[i])]
			}
			row = append(row, "("+v+")::"+c.typ)
		}
		values = append(values, "("+strings.Join(row, ", ")+")")
	}
	return fidelityTypes + ";\n" +
		"create table src (id integer primary key, " + strings.Join(defs, ", ") + ");\n" +
		"insert into src values " + strings.Join(values, ",\n") + ";\n" +
		"create table dst (like src including all)", cols, rows + 1
}

var allFormats = []exportrows.Format{exportrows.CSV, exportrows.NDJSON, exportrows.Parquet}

// oddSettings gives the test's database settings unlike pipe's own, which
// neither the export nor the import may depend on.
const oddSettings = `do $$ begin
	execute format('alter database %I set timezone to %L', current_database(), 'America/St_Johns');
	execute format('alter database %I set datestyle to %L', current_database(), 'SQL, DMY');
	execute format('alter database %I set intervalstyle to %L', current_database(), 'sql_standard');
	end $$`

// Every column type PostgreSQL ships, exported with pipe and imported back
// with pipe, comes back the same in every format: both tables compared row
// by row on each column's text, both ways — in a database whose time zone,
// date style and interval style are not pipe's.
func TestEveryColumnTypeRoundTripsInEveryFormat(t *testing.T) {
	for _, format := range allFormats {
		t.Run(string(format), func(t *testing.T) {
			ddl, cols, rows := fidelityDDL(format)
			b := setup(t, ddl)
			if _, err := fixtures.Owner(t, b.pool).Exec(context.Background(), oddSettings); err != nil {
				t.Fatal(err) // the database's settings are its owner's
			}
			if fixtures.Pooled() {
				// straight to the server: a pooler answers its clients the
				// settings its servers had when it first met them
				b.pool = directPool(t, b.pool)
			}
			b.pool.Reset() // new connections take the settings
			var zone string
			if err := b.pool.QueryRow(context.Background(), "show timezone").Scan(&zone); err != nil || zone != "America/St_Johns" {
				t.Fatalf("the database's time zone is %q (%v)", zone, err)
			}
			in := b.in(t, "src")
			in.Format, in.PageRows = format, 7
			_, m := manifestOf(t, b.export(t, options(), in))
			importAll(t, b, m, "dst")
			assertSameTables(t, b, cols, rows)
		})
	}
}

// Each value that cannot come back as itself in a format does what the
// README says: the export refuses it with X_EXPORT_VALUE_UNSUPPORTED, or it
// comes back as the documented value.
func TestRoundTripExceptionsAreTheDocumentedOnes(t *testing.T) {
	b := setup(t, fidelityTypes)
	for i, e := range fidelityExceptions {
		t.Run(fmt.Sprintf("%d-%s-%s", i, e.format, e.typ), func(t *testing.T) {
			src, dst := fmt.Sprintf("src%d", i), fmt.Sprintf("dst%d", i)
			_, err := b.pool.Exec(context.Background(), "create table "+src+" (id integer primary key, c00 "+e.typ+");\n"+
				"insert into "+src+" values (1, ("+e.val+")::"+e.typ+");\ncreate table "+dst+" (like "+src+" including all)")
			if err != nil {
				t.Fatal(err)
			}
			in := b.in(t, src)
			in.Format = e.format
			d, res := run(t, b.pool, exportrows.MustNew(exportKey, options()), in)
			if e.want == "" {
				if d.State != "dead" || lastCode(d) != "X_EXPORT_VALUE_UNSUPPORTED" {
					t.Fatalf("export %s (%s), want refused with X_EXPORT_VALUE_UNSUPPORTED", d.State, lastError(d))
				}
				return
			}
			if d.State != "done" {
				t.Fatalf("export %s: %s", d.State, lastError(d))
			}
			_, m := manifestOf(t, res)
			importAll(t, b, m, dst)
			var same bool
			err = b.pool.QueryRow(context.Background(), "select c00::text is not distinct from ("+e.want+")::"+e.typ+"::text from "+dst).Scan(&same)
			if err != nil || !same {
				t.Fatalf("the value did not come back as documented (%v)", err)
			}
		})
	}
}

// assertSameTables compares src and dst row by row on each column's text,
// both ways, and names the columns that differ.
func assertSameTables(t *testing.T, b *bundle, cols []string, rows int) {
	t.Helper()
	texts := make([]string, len(cols))
	for i, c := range cols {
		texts[i] = c + "::text"
	}
	list := "id, " + strings.Join(texts, ", ")
	var n, diff int
	err := b.pool.QueryRow(context.Background(), fmt.Sprintf(`select (select count(*) from dst), (select count(*) from (
		(select %[1]s from src except all select %[1]s from dst) union all
		(select %[1]s from dst except all select %[1]s from src)) d)`, list)).Scan(&n, &diff)
	if err != nil {
		t.Fatal(err)
	}
	if n != rows || diff != 0 {
		t.Errorf("imported %d of %d rows, %d differ; columns that differ: %s", n, rows, diff, differing(t, b, cols))
	}
}

// differing names the columns whose text differs between src and dst,
// with their type and the ids of the rows.
func differing(t *testing.T, b *bundle, cols []string) string {
	t.Helper()
	var out []string
	for i, c := range cols {
		var ids []int32
		err := b.pool.QueryRow(context.Background(), fmt.Sprintf(`select coalesce(array_agg(s.id order by s.id), '{}') from src s
			join dst d on d.id = s.id where d.%[1]s::text is distinct from s.%[1]s::text`, c)).Scan(&ids)
		if err != nil {
			t.Fatal(err)
		}
		if len(ids) > 0 {
			out = append(out, fmt.Sprintf("%s %s rows %v", c, fidelityColumns[i].typ, ids))
		}
	}
	return strings.Join(out, "; ")
}

// importAll imports every part of m into the table into with
// importrows.TableJob and fails the test on a refused row, showing the
// error report (lines, columns and codes; never values).
func importAll(t *testing.T, b *bundle, m *exportrows.Manifest, into string) {
	t.Helper()
	job := importrows.TableJob()
	startWorker(t, b.pool, job)
	for _, p := range m.Parts {
		res, err := job.Enqueue(context.Background(), b.pool, importrows.FileImport{
			Source: b.bucket + "/" + p.Key, Into: pg.Relation{Name: into}, Key: []string{"id"},
		})
		if err != nil {
			t.Fatal(err)
		}
		d := awaitSettled(t, b.pool, res.ID)
		var out importrows.Result
		if d.State != "done" || json.Unmarshal(d.Result, &out) != nil {
			t.Fatalf("import of %s %s: %s", p.Key, d.State, lastError(d))
		}
		if out.Refused > 0 {
			t.Errorf("import of %s refused %d rows: %s", p.Key, out.Refused, errorReport(t, out))
		}
	}
}

// errorReport answers the text of an import's error report.
func errorReport(t *testing.T, res importrows.Result) string {
	t.Helper()
	bk := openBucket(t, res.ErrorBucket)
	objs, err := bk.List(context.Background(), res.ErrorPrefix)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, o := range objs {
		out = append(out, string(decoded(t, bk, o.Key)))
	}
	return strings.Join(out, "\n")
}

// directPool answers a pool on pool's database straight to the server,
// closed when the test ends.
func directPool(t *testing.T, pool *pgxpool.Pool) *pgxpool.Pool {
	t.Helper()
	direct, err := pgxpool.New(context.Background(), fixtures.DirectURL(t, pool.Config().ConnString()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(direct.Close)
	return direct
}
