package project_test

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/project"
)

// FuzzLoad: whatever the bytes of pipe.json, Load answers a project or a
// coded error; a file it loads is one pipe.schema.json accepts, decodes to
// what it encodes back to, and declares each name once.
func FuzzLoad(f *testing.F) {
	example, err := os.ReadFile("testdata/pipe.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(example)
	f.Add([]byte(`{"rollups":[` + goodRollup + `]}`))
	f.Add([]byte(`{"views":[{"name":"v","view":"Sales.\"Totals\"","timeout":"10m"}],"tasks":[{"name":"t","cron":"@daily","run":["v"]}]}`))
	f.Add([]byte(`{"ROLLUPS":[]}`))
	f.Add([]byte(`{"tasks":[{"name":"t","cron":"61 * * * *","run":["nope"]}]} x`))
	schema := compiledSchema(f)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, raw []byte) {
		path := dir + "/pipe.json"
		if err := os.WriteFile(path, raw, 0o600); err != nil {
			t.Fatal(err)
		}
		p, err := project.Load(path)
		if err != nil {
			if errcode.CodeOf(err) == "" {
				t.Fatalf("uncoded refusal: %v", err)
			}
			return
		}
		if err := schemaAccepts(t, schema, string(raw)); err != nil {
			t.Fatalf("loaded %q, which the schema refuses: %v", raw, err)
		}
		enc, err := json.Marshal(p.File)
		if err != nil {
			t.Fatal(err)
		}
		again, err := project.Decode(bytes.NewReader(enc))
		if err != nil {
			t.Fatalf("%q encodes back as %s, which does not decode: %v", raw, enc, err)
		}
		if enc2, _ := json.Marshal(again); !bytes.Equal(enc, enc2) {
			t.Fatalf("%q: %s decodes to %s", raw, enc, enc2)
		}
		seen := map[string]bool{}
		for _, d := range p.Declarations {
			if seen[d.Name] {
				t.Fatalf("%q declares %s twice", raw, d.Name)
			}
			seen[d.Name] = true
		}
	})
}
