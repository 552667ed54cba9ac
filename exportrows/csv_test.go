package exportrows_test

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"

	"github.com/pipekit/pipe/exportrows"
)

// csvOf exports table as csv and answers its one part, as bytes.
func csvOf(t *testing.T, b *bundle, table string) []byte {
	t.Helper()
	res := b.export(t, options(), b.in(t, table))
	bk, m := manifestOf(t, res)
	if len(m.Parts) != 1 {
		t.Fatalf("%d parts", len(m.Parts))
	}
	return decoded(t, bk, m.Parts[0].Key)
}

// Every text cell beginning with =, +, -, @, a tab or a carriage return is
// written with a leading '; numbers, dates and json are left as they are.
func TestCSVFormulaGuard(t *testing.T) {
	b := setup(t, `create table cells(id int primary key, t text, v varchar(20), n numeric, i int, f float8, j jsonb, d date);
		insert into cells values
			(1, '=1+2', '=HYPERLINK("x")', -1.5, -5, -0.25, '-3', '2024-01-02'),
			(2, '+1', '+1', null, null, null, null, null),
			(3, '-1', '-1', null, null, null, null, null),
			(4, '@SUM(A1)', '@x', null, null, null, null, null),
			(5, e'\tx', e'\t', null, null, null, null, null),
			(6, e'\rx', e'\r', null, null, null, null, null),
			(7, 'plain', 'a=b', null, null, null, null, null),
			(8, '''=quoted', ' =spaced', null, null, null, null, null)`)
	recs, err := csv.NewReader(bytes.NewReader(csvOf(t, b, "cells"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"id", "t", "v", "n", "i", "f", "j", "d"},
		{"1", "'=1+2", `'=HYPERLINK("x")`, "-1.5", "-5", "-0.25", "-3", "2024-01-02"},
		{"2", "'+1", "'+1", "", "", "", "", ""},
		{"3", "'-1", "'-1", "", "", "", "", ""},
		{"4", "'@SUM(A1)", "'@x", "", "", "", "", ""},
		{"5", "'\tx", "'\t", "", "", "", "", ""},
		{"6", "'\rx", "'\r", "", "", "", "", ""},
		{"7", "plain", "a=b", "", "", "", "", ""},
		{"8", "'=quoted", " =spaced", "", "", "", "", ""},
	}
	for i := range want {
		if i >= len(recs) || strings.Join(recs[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("record %d: %q, want %q", i, recs[min(i, len(recs)-1)], want[i])
		}
	}
}

// A NULL is an empty unquoted field; an empty string is "". Timestamps are
// RFC 3339 in UTC; quotes, commas and line breaks are quoted.
func TestCSVNullsQuotingAndTimes(t *testing.T) {
	b := setup(t, `create table notes(id int primary key, t text, at timestamptz, local timestamp, ok boolean, raw bytea);
		insert into notes values
			(1, null, '2024-01-02 03:04:05.123+02', '2024-01-02 03:04:05', true, '\x0aff'),
			(2, '', '2024-01-02 00:00:00+00', null, false, ''),
			(3, e'say "hi", \nbye', null, '1999-12-31 23:59:59.999999', null, null),
			(4, '\.', '0044-03-15 12:00:00+00 BC', null, null, null)`)
	got := string(csvOf(t, b, "notes"))
	want := "id,t,at,local,ok,raw\n" +
		"1,,2024-01-02T01:04:05.123Z,2024-01-02T03:04:05,true,\\x0aff\n" +
		"2,\"\",2024-01-02T00:00:00Z,,false,\\x\n" +
		"3,\"say \"\"hi\"\", \nbye\",,1999-12-31T23:59:59.999999,,\n" +
		"4,\"\\.\",0044-03-15T12:00:00Z BC,,,\n"
	if got != want {
		t.Fatalf("csv:\n%s\nwant:\n%s", got, want)
	}
}

// Columns the export is not asked for stay out, even the ordering key.
func TestCSVColumnsAskedForInTheirOrder(t *testing.T) {
	b := setup(t, `create table people(id int primary key, name text, email text);
		insert into people select i, 'n' || i, 'e' || i from generate_series(1, 5) i`)
	o := options()
	o.Columns = []string{"email", "name"}
	o.PageRows = 2
	res := b.export(t, o, b.in(t, "people"))
	bk, m := manifestOf(t, res)
	var all []string
	for _, p := range m.Parts {
		all = append(all, strings.TrimSpace(string(decoded(t, bk, p.Key))))
	}
	got := strings.Join(all, "|")
	if got != "email,name\ne1,n1\ne2,n2|email,name\ne3,n3\ne4,n4|email,name\ne5,n5" || len(m.Columns) != 2 {
		t.Fatalf("parts %q, columns %+v", got, m.Columns)
	}
	_ = exportrows.CSV
}
