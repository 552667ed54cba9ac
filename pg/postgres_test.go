package pg_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pg"
)

// corpus are names as people type them, good and bad.
var corpus = []string{
	"orders", "Orders", "ORDERS", "sales.orders", "Sales.Orders", `"Sales"."Order Items"`, `Sales."Order Items"`,
	` sales . orders `, "\tsales\n.\rorders\f", `"we""ird"`, `""""`, "café", "CAFÉ", "t$1", "_x", "select", `"select"`,
	"a.b.c", "", " ", ".", "a.", ".a", "a..b", "Order Items", "my-table", "1abc", "$a", `"open`, `""`, `a.""`,
	`"a"b`, "a;drop", `"a.b"`, `"A"."B"`, "a .b", "a. b", `"x" . "y"`, "ab$c1", "Ä", "ß.ẞ", `"日本"."表"`, "日本.表",
}

// ParseRelation agrees with PostgreSQL's own parse_ident (strict): where
// the server reads one or two parts, it reads the same ones; where the
// server refuses, so does it.
func TestParseRelationAgreesWithParseIdent(t *testing.T) {
	tx := fixtures.Tx(t)
	for _, s := range corpus {
		want, serverOK := parseIdent(t, tx, s)
		got, err := pg.ParseRelation(s)
		switch {
		case !serverOK && err == nil:
			t.Errorf("%q: the server refuses it, ParseRelation reads %+v", s, got)
		case serverOK && len(want) > 2 && err == nil:
			t.Errorf("%q: %d parts read as %+v", s, len(want), got)
		case serverOK && len(want) <= 2 && err != nil:
			t.Errorf("%q: the server reads %q, ParseRelation refuses: %v", s, want, err)
		case serverOK && len(want) <= 2 && strings.Join(want, ".") != strings.Trim(got.Schema+"."+got.Name, "."):
			t.Errorf("%q: the server reads %q, ParseRelation %+v", s, want, got)
		}
	}
}

func parseIdent(t *testing.T, tx pgx.Tx, s string) ([]string, bool) {
	t.Helper()
	ctx := context.Background()
	sp, err := tx.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer sp.Rollback(ctx)
	var parts []string
	if err := sp.QueryRow(ctx, `select parse_ident($1, true)`, s).Scan(&parts); err != nil {
		return nil, false
	}
	return parts, true
}

// QuoteName is quote_ident: the same names bare, the same quoted (the
// keywords of later servers, json or system_user, are quoted as well).
func TestQuoteNameIsQuoteIdent(t *testing.T) {
	tx := fixtures.Tx(t)
	names := []string{"orders", "Orders", "order items", `we"ird`, "café", "t$1", "_x", "1x", "x1", "user", "select", "name", "type", "a.b", "ß"}
	rows, err := tx.Query(context.Background(), `select word from pg_get_keywords()`)
	if err != nil {
		t.Fatal(err)
	}
	words, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range append(names, words...) {
		var want string
		if err := tx.QueryRow(context.Background(), `select quote_ident($1)`, n).Scan(&want); err != nil {
			t.Fatal(err)
		}
		if got := pg.QuoteName(n); got != want {
			t.Errorf("%q: %s; quote_ident %s", n, got, want)
		}
	}
}

// A table named "Order Items" in schema Sales is found by its quoted form,
// by its String form read by the server, and by what a person types.
func TestTheServerFindsTheRelationBothFormsName(t *testing.T) {
	tx := fixtures.Tx(t)
	ctx := context.Background()
	if _, err := tx.Exec(ctx, `create schema "Sales"; create table "Sales"."Order Items" (id int)`); err != nil {
		t.Fatal(err)
	}
	typed, err := pg.ParseRelation(`"Sales"."Order Items"`)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{typed.Quoted(), typed.String()} {
		var found bool
		if err := tx.QueryRow(ctx, `select to_regclass($1) = '"Sales"."Order Items"'::regclass`, name).Scan(&found); err != nil || !found {
			t.Errorf("%s: found %v, %v", name, found, err)
		}
	}
}

func TestEveryServerKeywordIsQuoted(t *testing.T) {
	tx := fixtures.Tx(t)
	rows, err := tx.Query(context.Background(), `select word from pg_get_keywords() where catcode <> 'U'`)
	if err != nil {
		t.Fatal(err)
	}
	words, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range words {
		if pg.QuoteName(w) == w {
			t.Errorf("%s is a keyword the list lacks", w)
		}
	}
	if !slices.ContainsFunc(words, func(w string) bool { return w == "select" }) || !utf8.ValidString(strings.Join(words, "")) {
		t.Fatalf("the server's keywords: %d", len(words))
	}
}
