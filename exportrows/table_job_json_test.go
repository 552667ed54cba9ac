package exportrows

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pg"
)

// legacyInput is the input of a run enqueued before From, as pipe.jobs
// holds it, and legacyKey the idempotency key that version gave it.
const (
	legacyInput = `{"schema":"Sales","table":"Order Items","columns":["Order Id","sku"],"key":["Order Id","line"],` +
		`"where":"line \u003e 0","to":"s3://bucket/exports?region=eu-west-1","format":"parquet","pageRows":5000}`
	legacyKey = `Sales.Order Items -> s3://bucket/exports?region=eu-west-1 6f4065826421`
)

// An input stored before From reads as the same table, names taken
// exactly, and keeps its idempotency key; written again, it is the new
// form, which reads back the same.
func TestAnInputStoredBeforeFromReadsAsTheSameTable(t *testing.T) {
	var in TableExport
	if err := json.Unmarshal([]byte(legacyInput), &in); err != nil {
		t.Fatal(err)
	}
	if in.From != (pg.Relation{Schema: "Sales", Name: "Order Items"}) || in.Where != "line > 0" || in.PageRows != 5000 {
		t.Fatalf("read %+v", in)
	}
	if got := in.key(); got != legacyKey {
		t.Fatalf("key %s; before From it was %s", got, legacyKey)
	}
	var old TableExport
	if err := json.Unmarshal([]byte(`{"table":"people","to":"file:///tmp/out"}`), &old); err != nil ||
		old.From != (pg.Relation{Name: "people"}) || old.key() != "people -> file:///tmp/out c1a1964b0a59" {
		t.Fatalf("read %+v (%s), %v", old, old.key(), err)
	}
	raw, err := json.Marshal(in)
	if err != nil || !strings.Contains(string(raw), `"from":"\"Sales\".\"Order Items\""`) || strings.Contains(string(raw), `"table"`) {
		t.Fatalf("written %s, %v", raw, err)
	}
	var back TableExport
	if err := json.Unmarshal(raw, &back); err != nil || !reflect.DeepEqual(back, in) || back.key() != legacyKey {
		t.Fatalf("read back %+v, %v", back, err)
	}
	if err := json.Unmarshal([]byte(`{"from":"x","table":"y","to":"/tmp"}`), &back); !errors.Is(err, errcode.JobInputInvalid) {
		t.Fatalf("a table named twice: %v", err)
	}
}

// The key digests the first form: every field of TableExport but From
// must be in it, or two exports differing in that field would be one run.
func TestTheKeyDigestsEveryField(t *testing.T) {
	names := func(t reflect.Type) []string {
		var out []string
		for f := range t.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			out = append(out, name)
		}
		return out
	}
	v1 := names(reflect.TypeFor[tableExportV1]())
	for _, n := range names(reflect.TypeFor[TableExport]()) {
		if n != "from" && !slices.Contains(v1, n) {
			t.Errorf("TableExport's %s is not in tableExportV1, so not in the key", n)
		}
	}
}
