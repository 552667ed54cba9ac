package subject_test

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/subject"
)

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open("subject.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("subject.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("subject.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func validates(t *testing.T, s *jsonschema.Schema, raw []byte) error {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	return s.Validate(v)
}

// The schema and the parser agree: the example passes both and reads
// back to what it says; each malformed declaration fails both.
func TestSchemaAndParserAgree(t *testing.T) {
	s := compileSchema(t)
	raw, err := os.ReadFile("testdata/forum.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := validates(t, s, raw); err != nil {
		t.Fatalf("the example does not validate: %v", err)
	}
	d, err := subject.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	m := d.Tables["members"]
	if _, ok := m.Anonymize["email"].(subject.SQL); !ok || m.Anonymize["bio"] != nil || m.Keep["plan"] == "" ||
		!d.Tables["comments"].Delete || d.Tables["posts"].Retain == "" || d.Proof.Rows != 3 {
		t.Fatalf("parsed %+v", d)
	}
	back, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	if err := validates(t, s, back); err != nil {
		t.Fatalf("the declaration written back does not validate: %v\n%s", err, back)
	}
	for _, bad := range []string{
		`{"tables": {"a": "delete"}}`,
		`{"root": "a", "tables": {"a": "drop"}}`,
		`{"root": "a", "tables": {"a": {"retain": "x", "delete": true}}}`,
		`{"root": "a", "tables": {"a": "delete"}, "colums": {}}`,
		`{"root": "a", "tables": {"a": {"anonymize": {"x": {"$sql": "1", "y": 2}}}}}`,
	} {
		schemaErr := validates(t, s, []byte(bad))
		_, parseErr := subject.Parse([]byte(bad))
		if schemaErr == nil {
			t.Errorf("the schema takes %s", bad)
		}
		if parseErr == nil && !strings.Contains(bad, `"tables": {"a": "delete"}}`) {
			t.Errorf("the parser takes %s", bad)
		}
	}
}

// Every field of the declaration is in the schema, and nothing more.
func TestSchemaNamesEveryField(t *testing.T) {
	raw, err := os.ReadFile("subject.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Defs       struct {
			Objects struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"objects"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	check := func(typ reflect.Type, props map[string]json.RawMessage) {
		var fields []string
		for f := range typ.Fields() {
			if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" && name != "-" { // "-": Go only (Targets)
				fields = append(fields, name)
			}
		}
		var names []string
		for n := range props {
			names = append(names, n)
		}
		slices.Sort(fields)
		slices.Sort(names)
		if !slices.Equal(fields, names) {
			t.Errorf("%s has fields %v; the schema %v", typ.Name(), fields, names)
		}
	}
	check(reflect.TypeFor[subject.Declaration](), doc.Properties)
	check(reflect.TypeFor[subject.Objects](), doc.Defs.Objects.Properties)
}

func TestParseRefusesWithoutQuotingValues(t *testing.T) {
	_, err := subject.Parse([]byte(`{"root": "a", "tables": {"a": "secret-value"}}`))
	if e, ok := errcode.As(err); !ok || e.Code != errcode.ConfigInvalid || strings.Contains(e.Message, "secret") {
		t.Fatalf("%v", err)
	}
}
