package project_test

import (
	"bytes"
	"flag"
	"os"
	"testing"

	"github.com/invopop/jsonschema"

	"github.com/pipekit/pipe/project"
)

var update = flag.Bool("update", false, "rewrite pipe.schema.json from the Go types")

// The checked-in JSON Schema is what the Go types and their comments
// generate: change a field, a tag or a comment and this test fails until
// the schema is regenerated (go test ./project -run Schema -update).
func TestSchemaAgreesWithTheGoTypes(t *testing.T) {
	r := &jsonschema.Reflector{}
	if err := r.AddGoComments("github.com/pipekit/pipe/project", "."); err != nil {
		t.Fatal(err)
	}
	got, err := project.GenerateSchema(r.CommentMap)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("pipe.schema.json", got, 0o644); err != nil {
			t.Fatal(err)
		}
		return // the embedded copy is the old one until the next build
	}
	if !bytes.Equal(got, project.SchemaJSON()) {
		t.Fatalf("pipe.schema.json is not what the Go types generate; run go test ./project -run Schema -update\n%s", got)
	}
}
