package project

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"reflect"

	"github.com/invopop/jsonschema"
)

// SchemaJSON answers pipe.schema.json, the JSON Schema of a project file,
// generated from [File] and its field comments; a test keeps the two in
// agreement. Point an editor at it with "$schema" in pipe.json. The answer
// is a copy.
func SchemaJSON() []byte { return bytes.Clone(schemaJSON) }

//go:embed pipe.schema.json
var schemaJSON []byte

// SchemaID is the schema's $id.
const SchemaID = "https://github.com/pipekit/pipe/project/pipe.schema.json"

// GenerateSchema reflects the schema from File. comments maps a type or
// field (as jsonschema.Reflector.CommentMap keys it) to its description;
// the checked-in schema is generated with the package's own doc comments.
func GenerateSchema(comments map[string]string) ([]byte, error) {
	r := &jsonschema.Reflector{DoNotReference: false, CommentMap: comments, RequiredFromJSONSchemaTags: false}
	s := r.ReflectFromType(reflect.TypeFor[File]())
	s.ID = SchemaID
	s.Title = "pipe project file (pipe.json)"
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
