package pg_test

import (
	"encoding/json"
	"errors"
	"flag"
	"testing"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pg"
)

type holder struct {
	Table pg.Relation `json:"table"`
	Maybe pg.Relation `json:"maybe,omitzero"`
}

func TestJSONIsTheSQLSpelling(t *testing.T) {
	for raw, want := range map[string]pg.Relation{
		`{"table": "orders"}`:                              {Name: "orders"},
		`{"table": "Sales.Orders"}`:                        {Schema: "sales", Name: "orders"},
		`{"table": "\"Sales\".\"Order Items\""}`:           {Schema: "Sales", Name: "Order Items"},
		`{"table": {"schema": "Sales", "name": "Orders"}}`: {Schema: "Sales", Name: "Orders"},
		`{"table": {"name": "a.b"}}`:                       {Name: "a.b"},
		`{"table": ""}`:                                    {},
		`{"table": null}`:                                  {},
	} {
		var h holder
		if err := json.Unmarshal([]byte(raw), &h); err != nil || h.Table != want {
			t.Errorf("%s: %+v, %v", raw, h.Table, err)
			continue
		}
		out, err := json.Marshal(h)
		var back holder
		if err != nil || json.Unmarshal(out, &back) != nil || back.Table != want {
			t.Errorf("%s: written as %s, read back as %+v", raw, out, back.Table)
		}
	}
	for _, raw := range []string{`{"table": "Order Items"}`, `{"table": {"schema": "s"}}`, `{"table": "a.b.c"}`, `{"table": 3}`} {
		var h holder
		err := json.Unmarshal([]byte(raw), &h)
		if err == nil {
			t.Errorf("%s read as %+v", raw, h.Table)
		}
		if raw != `{"table": 3}` && !errors.Is(err, errcode.NameInvalid) {
			t.Errorf("%s: %v", raw, err)
		}
	}
	out, _ := json.Marshal(holder{Table: pg.Relation{Schema: "Sales", Name: "Order Items"}})
	if string(out) != `{"table":"\"Sales\".\"Order Items\""}` {
		t.Errorf("written %s", out)
	}
}

func TestARelationIsAFlag(t *testing.T) {
	var r pg.Relation
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.TextVar(&r, "into", pg.Relation{}, "the table")
	if err := fs.Parse([]string{"--into", `Sales."Order Items"`}); err != nil || r != (pg.Relation{Schema: "sales", Name: "Order Items"}) {
		t.Fatalf("%+v %v", r, err)
	}
}
