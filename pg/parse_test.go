package pg_test

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pg"
)

func TestParseRelationReadsWhatSQLWrites(t *testing.T) {
	for in, want := range map[string]pg.Relation{
		"orders":                       {Name: "orders"},
		"Orders":                       {Name: "orders"},
		"analytics.Orders_Daily":       {Schema: "analytics", Name: "orders_daily"},
		`"Sales"."Order Items"`:        {Schema: "Sales", Name: "Order Items"},
		`Sales."Order Items"`:          {Schema: "sales", Name: "Order Items"},
		` sales . "a.b" `:              {Schema: "sales", Name: "a.b"},
		`"we""ird"`:                    {Name: `we"ird`},
		`""""`:                         {Name: `"`},
		"café":                         {Name: "café"},
		"CAFÉ":                         {Name: "cafÉ"}, // only ASCII folds, as under UTF-8
		"t$1":                          {Name: "t$1"},
		"_x":                           {Name: "_x"},
		`"select"`:                     {Name: "select"},
		"select":                       {Name: "select"}, // parse_ident takes keywords
		strings.Repeat("a", 63):        {Name: strings.Repeat("a", 63)},
		"s." + strings.Repeat("é", 31): {Schema: "s", Name: strings.Repeat("é", 31)},
	} {
		got, err := pg.ParseRelation(in)
		if err != nil || got != want {
			t.Errorf("%q: %+v, %v; want %+v", in, got, err, want)
		}
	}
}

func TestParseRelationRefusesWhatSQLWouldNot(t *testing.T) {
	for _, bad := range []string{
		"", " ", ".", "a.", ".a", "a..b", "a.b.c", "Order Items", "my-table", "1abc", "$a",
		`"open`, `""`, `a.""`, `"a"b`, "a;drop table x", "a\x00b", `"a` + "\x00" + `"`, "\xff",
		strings.Repeat("a", 64), "s." + strings.Repeat("é", 32),
	} {
		r, err := pg.ParseRelation(bad)
		if err == nil {
			t.Errorf("%q parsed as %+v", bad, r)
			continue
		}
		if !errors.Is(err, errcode.NameInvalid) {
			t.Errorf("%q: %v is not X_NAME_INVALID", bad, err)
		}
		if len(bad) > 3 && len(bad) <= pg.MaxNameBytes && strings.Contains(err.Error(), bad) {
			t.Errorf("%q: the message quotes the name: %v", bad, err)
		}
	}
}

// A name over 63 bytes is refused saying so, shown by its first 40 bytes
// cut between characters.
func TestLongNamesAreRefused(t *testing.T) {
	long := strings.Repeat("é", 35) // 70 bytes
	_, err := pg.ParseRelation(`"` + long + `"`)
	if err == nil || !strings.Contains(err.Error(), "70 bytes, over PostgreSQL's 63-byte limit") || !utf8.ValidString(err.Error()) {
		t.Fatalf("%v", err)
	}
	if err := pg.CheckName("column", strings.Repeat("a", 63)); err != nil {
		t.Fatalf("63 bytes refused: %v", err)
	}
	for _, r := range []pg.Relation{{Name: long}, {Schema: long, Name: "t"}, {}, {Schema: "s"}, {Name: "a\x00"}} {
		if err := r.Check(); !errors.Is(err, errcode.NameInvalid) {
			t.Errorf("%+v: %v", r, err)
		}
	}
}

func TestStringIsReadBackAndQuotedIsSQL(t *testing.T) {
	for _, r := range []pg.Relation{
		{Name: "orders"}, {Name: "Orders"}, {Schema: "Sales", Name: "Order Items"}, {Name: `we"ird`},
		{Name: "user"}, {Name: "a.b"}, {Name: "café"}, {Name: "t$1"}, {Name: "1x"}, {Schema: "s", Name: " x "},
	} {
		back, err := pg.ParseRelation(r.String())
		if err != nil || back != r {
			t.Errorf("%+v: %s reads back as %+v, %v", r, r, back, err)
		}
	}
	r := pg.Relation{Schema: "Sales", Name: `Order "Items"`}
	if got := r.Quoted(); got != `"Sales"."Order ""Items"""` {
		t.Errorf("quoted %s", got)
	}
	if got := r.String(); got != `"Sales"."Order ""Items"""` {
		t.Errorf("string %s", got)
	}
	if got := (pg.Relation{Schema: "sales", Name: "orders"}).String(); got != "sales.orders" {
		t.Errorf("string %s", got)
	}
}

func TestParseNamesReadsAColumnList(t *testing.T) {
	got, err := pg.ParseNames(` id ,"Order Id",Day, "a,b" `)
	if err != nil || strings.Join(got, "|") != "id|Order Id|day|a,b" {
		t.Fatalf("%q %v", got, err)
	}
	if got, err := pg.ParseNames("  "); err != nil || got != nil {
		t.Fatalf("blank: %q %v", got, err)
	}
	for _, bad := range []string{"a,", ",a", "a,,b", "a b", "a.b", `"`, `""`, strings.Repeat("x", 64)} {
		if _, err := pg.ParseNames(bad); !errors.Is(err, errcode.NameInvalid) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// Whatever parses writes back, as String, to a name that parses to the same
// relation; whatever does not parse is X_NAME_INVALID.
func FuzzParseRelation(f *testing.F) {
	for _, s := range []string{"orders", `Sales."Order Items"`, `"a""b".c`, "a.b.c", `"`, "é.É", " x . y "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := pg.ParseRelation(s)
		if err != nil {
			if !errors.Is(err, errcode.NameInvalid) {
				t.Fatalf("%q: %v", s, err)
			}
			return
		}
		if r.Check() != nil {
			t.Fatalf("%q parsed to a relation Check refuses: %+v", s, r)
		}
		back, err := pg.ParseRelation(r.String())
		if err != nil || back != r {
			t.Fatalf("%q: %+v writes as %s, read back as %+v (%v)", s, r, r, back, err)
		}
		back, err = pg.ParseRelation(r.Quoted())
		if err != nil || back != r {
			t.Fatalf("%q: %+v quotes as %s, read back as %+v (%v)", s, r, r.Quoted(), back, err)
		}
	})
}
