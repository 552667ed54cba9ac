package importrows

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

// legacyInput is the input of a run enqueued before Into, as pipe.jobs
// holds it, and legacyKey the idempotency key that version gave it.
const (
	legacyInput = `{"source":"file:///data/items.csv","schema":"Sales","table":"Order Items","key":["Order Id","line"],` +
		`"columns":["Order Id","line","sku"],"format":"csv","delimiter":";","limits":{"pageBytes":65536,"maxRowErrors":0}}`
	legacyKey = `file:///data/items.csv -> "Sales"."Order Items" a000083b6ed8`
)

// An input stored before Into reads as the same table, names taken
// exactly, and keeps its idempotency key; written again, it is the new
// form, which reads back the same.
func TestAnInputStoredBeforeIntoReadsAsTheSameTable(t *testing.T) {
	var in FileImport
	if err := json.Unmarshal([]byte(legacyInput), &in); err != nil {
		t.Fatal(err)
	}
	if in.Into != (pg.Relation{Schema: "Sales", Name: "Order Items"}) || in.Delimiter != ";" || *in.Limits.MaxRowErrors != 0 {
		t.Fatalf("read %+v", in)
	}
	if got := in.key(); got != legacyKey {
		t.Fatalf("key %s; before Into it was %s", got, legacyKey)
	}
	var old FileImport
	if err := json.Unmarshal([]byte(`{"source":"file:///data/p.csv","table":"People","limits":{}}`), &old); err != nil ||
		old.Into != (pg.Relation{Name: "People"}) || old.key() != `file:///data/p.csv -> "People" `+digestOf(old) {
		t.Fatalf("read %+v, %v", old, err)
	}
	raw, err := json.Marshal(in)
	if err != nil || !strings.Contains(string(raw), `"into":"\"Sales\".\"Order Items\""`) || strings.Contains(string(raw), `"table"`) {
		t.Fatalf("written %s, %v", raw, err)
	}
	var back FileImport
	if err := json.Unmarshal(raw, &back); err != nil || !reflect.DeepEqual(back, in) || back.key() != legacyKey {
		t.Fatalf("read back %+v, %v", back, err)
	}
}

func digestOf(in FileImport) string { return in.key()[strings.LastIndexByte(in.key(), ' ')+1:] }

func TestIntoReadsAsSQLWritesIt(t *testing.T) {
	var in FileImport
	if err := json.Unmarshal([]byte(`{"source":"s3://b/k.csv","into":"Sales.\"Order Items\""}`), &in); err != nil ||
		in.Into != (pg.Relation{Schema: "sales", Name: "Order Items"}) {
		t.Fatalf("%+v %v", in, err)
	}
	err := json.Unmarshal([]byte(`{"source":"s3://b/k.csv","into":"x","table":"y"}`), &in)
	if !errors.Is(err, errcode.JobInputInvalid) {
		t.Fatalf("a table named twice: %v", err)
	}
	if err := json.Unmarshal([]byte(`{"source":"s3://b/k.csv","into":"Order Items"}`), &in); !errors.Is(err, errcode.NameInvalid) {
		t.Fatalf("an unquoted name with a space: %v", err)
	}
}

// The key digests the first form: every field of FileImport but Into must
// be in it, or two imports differing in that field would be one run.
func TestTheKeyDigestsEveryField(t *testing.T) {
	names := func(t reflect.Type) []string {
		var out []string
		for f := range t.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			out = append(out, name)
		}
		return out
	}
	v1 := names(reflect.TypeFor[fileImportV1]())
	for _, n := range names(reflect.TypeFor[FileImport]()) {
		if n != "into" && !slices.Contains(v1, n) {
			t.Errorf("FileImport's %s is not in fileImportV1, so not in the key", n)
		}
	}
}

// The stock job's manifest describes Into as the string it is written as.
func TestTheManifestDescribesIntoAsAString(t *testing.T) {
	var schema struct {
		Properties map[string]struct {
			Type string `json:"type"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(TableJob().Describe().Input, &schema); err != nil {
		t.Fatal(err)
	}
	if got := schema.Properties["into"].Type; got != "string" {
		t.Fatalf("into is described as %q: %s", got, TableJob().Describe().Input)
	}
}
