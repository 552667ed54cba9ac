package pipeline

import (
	"encoding/json"
	"reflect"

	"github.com/invopop/jsonschema"
)

// schemaOf answers the JSON Schema of a job's input type, reflected from its
// Go type and json tags (github.com/invopop/jsonschema: a kept library beats
// a hand-written reflector).
func schemaOf[In any]() json.RawMessage {
	var zero In
	t := reflect.TypeOf(&zero).Elem()
	r := &jsonschema.Reflector{DoNotReference: true, Anonymous: true}
	s := r.ReflectFromType(t)
	b, err := json.Marshal(s)
	if err != nil {
		return json.RawMessage(`{}`)
	}
	return b
}
