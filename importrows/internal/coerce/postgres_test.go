package coerce

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/fixtures"
)

// utcTx answers a test transaction whose session reads times in UTC, as
// the importer's does.
func utcTx(t *testing.T) pgx.Tx {
	t.Helper()
	tx := fixtures.Tx(t)
	if _, err := tx.Exec(t.Context(), `set local timezone = 'UTC'`); err != nil {
		t.Fatal(err)
	}
	return tx
}

// copyIn creates a temporary table of the given column types and COPYs
// csv into it.
func copyIn(ctx context.Context, tx pgx.Tx, types []string, csv []byte) error {
	cols := make([]string, len(types))
	defs := make([]string, len(types))
	for i, typ := range types {
		cols[i] = fmt.Sprintf("c%d", i)
		defs[i] = cols[i] + " " + typ
	}
	if _, err := tx.Exec(ctx, "create temporary table t ("+strings.Join(defs, ", ")+") on commit drop"); err != nil {
		return err
	}
	_, err := tx.Conn().PgConn().CopyFrom(ctx, bytes.NewReader(csv),
		"copy t ("+strings.Join(cols, ", ")+") from stdin (format csv)")
	return err
}

// TestPostgresStoresWhatAppendCSVEmits COPYs one row of every case into
// PostgreSQL and reads each column back as text.
func TestPostgresStoresWhatAppendCSVEmits(t *testing.T) {
	cases := []struct {
		typ  string
		in   Cell
		want string // the column read back ::text; "NULL" for NULL
	}{
		{"text", str(" a,\"b\"\n "), " a,\"b\"\n "},
		{"text", str(""), ""},
		{"text", str(`\.`), `\.`},
		{"text", null(), "NULL"},
		{"varchar(3)", str("äöü"), "äöü"},
		{"char(3)", str("a"), "a"},
		{"smallint", str(" -32768 "), "-32768"},
		{"integer", num("1e3"), "1000"},
		{"bigint", str("+9223372036854775807"), "9223372036854775807"},
		{"integer", str(" "), "NULL"},
		{"numeric", str("1.50"), "1.50"},
		{"numeric", str("-1.5e-3"), "-0.0015"},
		{"numeric", str("-inf"), "-Infinity"},
		{"numeric(5,2)", str("123.455"), "123.46"},
		{"numeric(5,2)", str("-0.001"), "0.00"},
		{"numeric(5,-2)", str("9999949"), "9999900"},
		{"numeric(2,4)", str("0.00994"), "0.0099"},
		{"real", str("0.1"), "0.1"},
		{"real", str("1e-40"), "1e-40"},
		{"double precision", str("1e308"), "1e+308"},
		{"double precision", str("4.9e-324"), "5e-324"},
		{"double precision", str("NaN"), "NaN"},
		{"double precision", str("-0"), "-0"},
		{"boolean", str("Yes"), "true"},
		{"boolean", bln(false), "false"},
		{"uuid", str("{A0EEBC999C0B4EF8BB6D6BB9BD380A11}"), "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"},
		{"date", str("2024-02-29"), "2024-02-29"},
		{"timestamptz", str("2024-01-02 03:04:05.123+02:00"), "2024-01-02 01:04:05.123+00"},
		{"timestamptz", str("2024-01-02T03:04:05+05:30:15"), "2024-01-01 21:33:50+00"},
		{"timestamptz", str("2024-01-02 03:04:05"), "2024-01-02 03:04:05+00"},
		{"timestamptz", str("0001-01-01T00:00:00+01:00"), "0001-12-31 23:00:00+00 BC"},
		{"timestamptz", str("9999-12-31T23:00:00-02:00"), "10000-01-01 01:00:00+00"},
		{"timestamptz", str("2024-01-02T03:04:05.1234575Z"), "2024-01-02 03:04:05.123458+00"},
		{"timestamptz(0)", str("1990-01-02T03:04:06.5Z"), "1990-01-02 03:04:06+00"},
		{"timestamp", str("2024-01-02t03:04:05.5"), "2024-01-02 03:04:05.5"},
		{"timestamp(1)", str("1990-01-02T03:04:06.55"), "1990-01-02 03:04:06.5"},
		{"time", str("23:59:59.9999999"), "24:00:00"},
		{"time(0)", str("10:00:00.5"), "10:00:01"},
		{"json", str(`{"b":1, "a":[true]}`), `{"b":1, "a":[true]}`},
		{"jsonb", raw(`{"b":1,"a":"\ud83d\ude00"}`), `{"a": "😀", "b": 1}`},
		{"jsonb", num("1.50"), "1.50"},
		{"bytea", str(`\xDEADbeef`), `\xdeadbeef`},
		{"integer[]", str(" { 1 , +2 ,NULL} "), "{1,2,NULL}"},
		{"integer[]", str("[1, 2.0, null]"), "{1,2,NULL}"},
		{"text[]", str(`{a,"b c",NULL,"NULL","",\"}`), `{a,"b c",NULL,"NULL","","\""}`},
		{"text[]", str(`["quote \" and \\ back", "x,y", "{z}"]`), `{"quote \" and \\ back","x,y","{z}"}`},
		{"varchar(2)[]", str(`{ab,"c "}`), `{ab,"c "}`},
		{"numeric(4,1)[]", str("{1.25,-0.04}"), "{1.3,0.0}"},
		{"uuid[]", str(`["A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11"]`), "{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}"},
		{"timestamptz[]", str(`{"2024-01-02 03:04:05+02"}`), `{"2024-01-02 01:04:05+00"}`},
		{"jsonb[]", str(`[{"a":1},[2]]`), `{"{\"a\": 1}",[2]}`},
		{"jsonb[]", str(`["s", "4\u00e9", null]`), `{"\"s\"","\"4é\"",NULL}`},
		{"bytea[]", str(`{"\\x01"}`), `{"\\x01"}`},
		{"boolean[]", str("[true,false,null]"), "{t,f,NULL}"},
		{"integer[]", str("{}"), "{}"},
	}
	types := make([]string, len(cases))
	var row []byte
	for i, c := range cases {
		types[i] = c.typ
		if i > 0 {
			row = append(row, ',')
		}
		var err error
		if row, err = appendOrFail(row, mustType(t, c.typ), c.in); err != nil {
			t.Fatalf("%s %s: %v", c.typ, show(c.in), err)
		}
	}
	row = append(row, '\n')
	tx := utcTx(t)
	if err := copyIn(t.Context(), tx, types, row); err != nil {
		t.Fatalf("COPY %q: %v", row, err)
	}
	exprs := make([]string, len(cases))
	for i := range cases {
		exprs[i] = fmt.Sprintf("coalesce(c%d::text, 'NULL')", i)
	}
	got := make([]string, len(cases))
	dests := make([]any, len(cases))
	for i := range got {
		dests[i] = &got[i]
	}
	if err := tx.QueryRow(t.Context(), "select "+strings.Join(exprs, ", ")+" from t").Scan(dests...); err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		if got[i] != c.want {
			t.Errorf("%s %s: PostgreSQL stored %q, want %q", c.typ, show(c.in), got[i], c.want)
		}
	}
}

func appendOrFail(dst []byte, typ Type, c Cell) ([]byte, error) {
	out, code := typ.AppendCSV(dst, c)
	if code != "" {
		return dst, code
	}
	return out, nil
}

// divergent are the inputs PostgreSQL reads as a value other than the one
// AppendCSV emits for them, by design.
var divergent = map[[2]string]string{
	{"bytea[]", `{""}`}: "an empty element is NULL for every non-text element type, as an empty field is",
}

// TestPostgresAcceptsWhatAppendCSVAccepts runs the corpus (and any fuzz
// inputs kept in testdata) through every corpus type: whatever AppendCSV
// accepts, PostgreSQL must accept, and where PostgreSQL reads the input
// itself it must store the same value.
func TestPostgresAcceptsWhatAppendCSVAccepts(t *testing.T) {
	inputs := append(append([]string(nil), corpus...), fuzzInputs(t)...)
	for _, typName := range corpusTypes {
		t.Run(typName, func(t *testing.T) {
			t.Parallel()
			checkCorpus(t, typName, inputs)
		})
	}
}

// checkCorpus tries inputs as typ in a transaction of its own: a
// transaction of many savepoints exhausts the server's shared memory.
func checkCorpus(t *testing.T, typName string, inputs []string) {
	ctx := t.Context()
	tx := utcTx(t)
	typ := mustType(t, typName)
	if err := copyIn(ctx, tx, []string{typName}, nil); err != nil {
		t.Fatal(err)
	}
	norm := "" // json keeps its input's spacing; compare it as jsonb
	if typ.base == jsonType {
		norm = strings.Replace(typName, "json", "::jsonb", 1)
	}
	for _, in := range inputs {
		row, code := typ.AppendCSV(nil, str(in))
		if code != "" {
			continue
		}
		ours, readable, err := storeOne(ctx, tx, append(row, '\n'), norm)
		if err != nil {
			t.Errorf("%q: AppendCSV gave %q, PostgreSQL refused it: %v", in, row, err)
			continue
		}
		if _, ok := divergent[[2]string{typName, in}]; ok {
			continue
		}
		pgIn := in
		if !typ.textual() {
			pgIn = string(trimSpace([]byte(in)))
		}
		if theirs, ok := castOne(ctx, tx, typName, pgIn, norm, typ.IsNull(str(in))); ok && readable && theirs != ours {
			t.Errorf("%q: stored %q from %q; PostgreSQL reads the input as %q", in, ours, row, theirs)
		}
	}
}

// storeOne COPYs csv into t, a one-column table, in a savepoint, and
// answers the value read back as text, through norm, a cast, and whether
// that cast worked.
func storeOne(ctx context.Context, tx pgx.Tx, csv []byte, norm string) (string, bool, error) {
	sp, err := tx.Begin(ctx)
	if err != nil {
		return "", false, err
	}
	defer func() { _ = sp.Rollback(ctx) }()
	if _, err := sp.Conn().PgConn().CopyFrom(ctx, bytes.NewReader(csv), "copy t (c0) from stdin (format csv)"); err != nil {
		return "", false, err
	}
	read, err := sp.Begin(ctx)
	if err != nil {
		return "", false, err
	}
	defer func() { _ = read.Rollback(ctx) }()
	var s string
	err = read.QueryRow(ctx, "select coalesce(c0"+norm+"::text, 'NULL') from t").Scan(&s)
	return s, err == nil, nil
}

// castOne answers what PostgreSQL itself reads in as typ, as text, when
// it reads it.
func castOne(ctx context.Context, tx pgx.Tx, typ, in, norm string, null bool) (string, bool) {
	if null {
		return "NULL", true
	}
	sp, err := tx.Begin(ctx)
	if err != nil {
		return "", false
	}
	defer func() { _ = sp.Rollback(ctx) }()
	var s string
	err = sp.QueryRow(ctx, "select cast($1::text as "+typ+")"+norm+"::text", in).Scan(&s)
	return s, err == nil
}
