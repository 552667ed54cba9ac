package exportrows_test

import (
	"strings"
	"testing"

	"github.com/pipekit/pipe/exportrows"
)

// partsText answers every part's csv body (header dropped), in part order.
func partsText(t *testing.T, res exportrows.Result) []string {
	t.Helper()
	bk, m := manifestOf(t, res)
	var out []string
	for _, p := range m.Parts {
		_, body, _ := strings.Cut(string(decoded(t, bk, p.Key)), "\n")
		out = append(out, strings.TrimSuffix(body, "\n"))
	}
	return out
}

// A composite key pages by row comparison: ties on the first column span
// pages and no row is lost or read twice.
func TestKeysetOverACompositeKey(t *testing.T) {
	b := setup(t, `create table lines(org int, n text, qty int, primary key (org, n));
		insert into lines select i / 4, 'n' || (i % 4), i from generate_series(0, 9) i`)
	in := b.in(t, "lines")
	in.PageRows = 3
	got := partsText(t, b.export(t, options(), in))
	want := []string{"0,n0,0\n0,n1,1\n0,n2,2", "0,n3,3\n1,n0,4\n1,n1,5", "1,n2,6\n1,n3,7\n2,n0,8", "2,n1,9"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("parts %q\nwant %q", got, want)
	}
}

// An empty source is a complete export of nothing: a manifest, no part.
func TestEmptyTableGivesAManifestWithoutParts(t *testing.T) {
	b := setup(t, `create table nothing(id int primary key, v text)`)
	res := b.export(t, options(), b.in(t, "nothing"))
	_, m := manifestOf(t, res)
	if m.Rows != 0 || len(m.Parts) != 0 || res.Parts != 0 || len(m.Columns) != 2 || m.CompletedAt.Before(m.StartedAt) {
		t.Fatalf("manifest %+v result %+v", m, res)
	}
}

// A page that comes back exactly full is followed by an empty one, which
// writes nothing.
func TestFullLastPage(t *testing.T) {
	b := setup(t, `create table four(id int primary key); insert into four select generate_series(1, 4)`)
	in := b.in(t, "four")
	in.PageRows = 2
	if got := partsText(t, b.export(t, options(), in)); strings.Join(got, "|") != "1\n2|3\n4" {
		t.Fatalf("parts %q", got)
	}
}

func TestKeyRefusals(t *testing.T) {
	b := setup(t, `create table bare(a int, b int); create table uniq(a int not null unique, b int not null);
		create table loose(a int unique, b int); create table arr(a int[] primary key);
		create view v as select 1 as a`)
	for _, tc := range []struct {
		table string
		key   []string
		code  string
	}{
		{"bare", nil, "X_EXPORT_KEY_INVALID"},           // no primary key
		{"uniq", []string{"b"}, "X_EXPORT_KEY_INVALID"}, // not unique
		{"loose", []string{"a"}, "X_EXPORT_KEY_INVALID"},
		{"uniq", []string{"c"}, "X_EXPORT_KEY_INVALID"},
		{"arr", nil, "X_EXPORT_KEY_INVALID"},
		{"v", nil, "X_EXPORT_KEY_INVALID"},
		{"missing", nil, "X_EXPORT_SOURCE_INVALID"},
		{"uniq", []string{"a", "b"}, ""}, // holds a unique column
		{"v", []string{"a"}, ""},         // a view is trusted
	} {
		in := b.in(t, tc.table)
		in.Key, in.Run = tc.key, tc.table+strings.Join(tc.key, ",")
		d, _ := run(t, b.pool, exportrows.MustNew(exportKey, options()), in)
		if lastCode(d) != tc.code || tc.code != "" && d.Attempt != 1 {
			t.Errorf("%s by %v: %s after %d attempts: %s", tc.table, tc.key, d.State, d.Attempt, lastError(d))
		}
	}
}

// A query pages by its declared key; a NULL in the key is refused.
func TestQuerySource(t *testing.T) {
	b := setup(t, `create table orders(id int primary key, org text, total int);
		insert into orders select i, 'org' || (i % 2), i * 10 from generate_series(1, 7) i`)
	in := exportIn{Bucket: b.bucket, Prefix: "q", Run: "q", PageRows: 1, Key: []string{"org", "n"},
		Query: "select org, count(*) as n, sum(total) as total from orders where total > $1 group by org -- by org", Args: []any{20}}
	got := partsText(t, b.export(t, options(), in))
	if strings.Join(got, "|") != "org0,2,100|org1,3,150" {
		t.Fatalf("parts %q", got)
	}
	in.Query, in.Args, in.Key, in.Run = `select null::int as k, 1 as v`, nil, []string{"k"}, "null"
	if d, _ := run(t, b.pool, exportrows.MustNew(exportKey, options()), in); lastCode(d) != "X_EXPORT_KEY_INVALID" {
		t.Fatalf("a NULL key: %s %s", d.State, lastError(d))
	}
}

// Where filters the table; its values are parameters.
func TestWhereWithArgs(t *testing.T) {
	b := setup(t, `create table orders(id int primary key, org text); insert into orders select i, 'org' || (i % 3) from generate_series(1, 9) i`)
	in := b.in(t, "orders")
	in.Where, in.Args, in.PageRows = "org = $1 or id = $2 -- a comment ends with its line", []any{"org1", 9}, 2
	if got := partsText(t, b.export(t, options(), in)); strings.Join(got, "|") != "1,org1\n4,org1|7,org1\n9,org0" {
		t.Fatalf("parts %q", got)
	}
}
