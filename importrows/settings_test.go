package importrows_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/importrows"
	"github.com/pipekit/pipe/pg"
)

// settingsCSV holds values each setting reads otherwise: a date with its
// day and month in either order (and one that is a date in one order
// only), timestamps with time zone without an offset, an interval whose
// sign sql_standard spreads over every field.
const settingsCSV = "id,d,tz,iv,ts\n" +
	"1,01/02/2015,2015-01-01 10:00:00,-1 2:00:00,2015-01-01 10:00:00\n" +
	"2,01/31/2015,2015-06-01 10:00:00+02,1 day,01/02/2015 03:04\n" +
	"3,2015-03-04,2015-01-01T10:00:00,-1 day 02:00:00,2015-03-04 05:06:07\n" +
	"4,31/01/2015,\"{2015-01-01 10:00:00}\",P1D,\n"

const settingsDDL = `create table %[1]s (id int primary key, d date, tz timestamptz, iv interval, ts timestamp)`

// Each setting changes what an import gives exactly as it changes what
// COPY into the same table gives, row by row, refusals included.
func TestImportSettingsReadAsCOPYReads(t *testing.T) {
	b := setup(t, "")
	in := b.put(t, "s.csv", []byte(settingsCSV))
	cases := []importrows.Settings{
		{},
		{DateStyle: "ISO, DMY"},
		{DateStyle: "SQL, YMD"},
		{TimeZone: "America/New_York"},
		{IntervalStyle: "sql_standard"},
		{DateStyle: "German, DMY", TimeZone: "Asia/Kolkata", IntervalStyle: "sql_standard"},
	}
	for i, s := range cases {
		p, c := fmt.Sprintf("pipe_%d", i), fmt.Sprintf("copy_%d", i)
		exec(t, b.pool, fmt.Sprintf(settingsDDL, p)+";"+fmt.Sprintf(settingsDDL, c))
		refused := importUnder(t, b, in, p, s)
		if want := copyRowByRowUnder(t, b.pool, c, settingsCSV, s); !slices.Equal(refused, want) {
			t.Errorf("%+v: pipe refused lines %v, COPY %v", s, refused, want)
		}
		requireSameTables(t, b.pool, p, c)
		if i > 0 && sameTables(t, b.pool, p, "pipe_0") {
			t.Errorf("%+v: the setting changed nothing", s)
		}
	}
}

// The database's own defaults (ALTER DATABASE ... SET, ALTER ROLE ... IN
// DATABASE ... SET) are what an import without settings reads under, as a
// fresh session's COPY would, though the pool's sessions began before.
func TestImportSettingsDefaultToTheDatabases(t *testing.T) {
	b := setup(t, fmt.Sprintf(settingsDDL, "pipe_side")+";"+fmt.Sprintf(settingsDDL, "copy_side"))
	var db string
	if err := b.pool.QueryRow(context.Background(), "select current_database()").Scan(&db); err != nil {
		t.Fatal(err)
	}
	// The database's and the role's settings are the owner's to make.
	role := pgx.Identifier{b.pool.Config().ConnConfig.User}.Sanitize()
	owner := fixtures.Owner(t, b.pool)
	exec(t, owner, fmt.Sprintf(`alter database %q set datestyle = 'ISO, DMY'; alter role %s in database %q set timezone = 'Pacific/Auckland'`, db, role, db))
	t.Cleanup(func() { exec(t, owner, fmt.Sprintf(`alter role %s in database %q reset all`, role, db)) })
	in := b.put(t, "s.csv", []byte(settingsCSV))
	refused := importUnder(t, b, in, "pipe_side", importrows.Settings{})
	fresh := importrows.Settings{DateStyle: "ISO, DMY", TimeZone: "Pacific/Auckland"}
	if want := copyRowByRowUnder(t, b.pool, "copy_side", settingsCSV, fresh); !slices.Equal(refused, want) {
		t.Errorf("pipe refused lines %v, COPY %v", refused, want)
	}
	requireSameTables(t, b.pool, "pipe_side", "copy_side")
}

// A setting PostgreSQL would not take is refused before the run reads a
// row: by the input's check, or by the server at the plan.
func TestImportSettingsAreChecked(t *testing.T) {
	for _, s := range []importrows.Settings{{DateStyle: "ISO, DMY, YMD"}, {DateStyle: "Dutch"}, {IntervalStyle: "verbose"}, {TimeZone: "Paris; drop"}} {
		fi := importrows.FileImport{Source: "file:///data/s.csv", Into: pg.Relation{Name: "t"}, Settings: s}
		if err := fi.Check(); !errors.Is(err, errcode.JobInputInvalid) {
			t.Errorf("%+v: %v", s, err)
		}
	}
	b := setup(t, fmt.Sprintf(settingsDDL, "t"))
	in := b.put(t, "s.csv", []byte(settingsCSV))
	fi := importrows.FileImport{Source: in.Bucket + "/" + in.Key, Errors: in.Bucket + "/errors", Into: pg.Relation{Name: "t"},
		Settings: importrows.Settings{TimeZone: "Mars/Olympus_Mons"}}
	d, _ := run(t, b.pool, importrows.TableJob(), fi)
	if d.State != "dead" || lastCode(d) != string(errcode.JobInputInvalid) || d.Attempt != 1 {
		t.Fatalf("%s on attempt %d: %+v", d.State, d.Attempt, d.LastError)
	}
	if n := count(t, b, `select count(*) from t`); n != 0 {
		t.Fatalf("%d rows written", n)
	}
}

// importUnder imports in into table with the stock job under s and
// answers the refused lines, every refusal X_IMPORT_FIELD_INVALID.
func importUnder(t *testing.T, b *bundle, in fileIn, table string, s importrows.Settings) []int {
	t.Helper()
	fi := importrows.FileImport{Source: in.Bucket + "/" + in.Key, Errors: in.Bucket + "/errors", Into: pg.Relation{Name: table},
		Key: []string{"id"}, Settings: s}
	d, _ := run(t, b.pool, importrows.TableJob(), fi)
	if d.State != "done" {
		t.Fatalf("%+v: %s %+v", s, d.State, d.LastError)
	}
	var lines []int
	for _, r := range readReport(t, b, d.RunID) {
		if r["code"] != string(errcode.ImportFieldInvalid) {
			t.Errorf("refusal %v", r)
		}
		lines = append(lines, int(r["line"].(float64)))
	}
	slices.Sort(lines)
	return lines
}

// copyRowByRowUnder is copyRowByRow with s set in each row's transaction.
func copyRowByRowUnder(t *testing.T, pool *pgxpool.Pool, table, doc string, s importrows.Settings) []int {
	t.Helper()
	ctx := context.Background()
	var refused []int
	for i, line := range strings.Split(strings.TrimSuffix(doc, "\n"), "\n")[1:] {
		conn, err := pool.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		set := "begin"
		for name, v := range map[string]string{"DateStyle": s.DateStyle, "TimeZone": s.TimeZone, "IntervalStyle": s.IntervalStyle} {
			if v != "" {
				set += fmt.Sprintf("; set local %s = '%s'", name, v)
			}
		}
		if _, err := conn.Exec(ctx, set); err != nil {
			t.Fatal(err)
		}
		_, err = conn.Conn().PgConn().CopyFrom(ctx, strings.NewReader(line+"\n"), "copy "+table+" from stdin (format csv)")
		if err != nil {
			refused = append(refused, i+2)
			_, _ = conn.Exec(ctx, "rollback")
		} else if _, err := conn.Exec(ctx, "commit"); err != nil {
			t.Fatal(err)
		}
		conn.Release()
	}
	return refused
}

func sameTables(t *testing.T, pool *pgxpool.Pool, a, b string) bool {
	t.Helper()
	var n int
	q := fmt.Sprintf("select count(*) from ((table %s except all table %s) union all (table %s except all table %s)) x", a, b, b, a)
	if err := pool.QueryRow(context.Background(), q).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n == 0
}

func exec(t *testing.T, pool *pgxpool.Pool, sql string) {
	t.Helper()
	if _, err := pool.Exec(context.Background(), sql); err != nil {
		t.Fatal(err)
	}
}
