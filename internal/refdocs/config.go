package refdocs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/invopop/jsonschema"
)

// Config renders docs/reference/config.md from schema, the JSON Schema of
// the project file: each definition, the root's first and then in the
// order the properties reach them, with every property's type, whether it
// is required, its constraints and its description.
func Config(schema []byte) ([]byte, error) {
	var raw map[string]any
	dec := json.NewDecoder(bytes.NewReader(schema))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		return nil, err
	}
	var typed jsonschema.Schema // its properties keep their order
	if err := json.Unmarshal(schema, &typed); err != nil {
		return nil, err
	}
	defs, _ := raw["$defs"].(map[string]any)
	var b strings.Builder
	b.WriteString("# The project file (pipe.json)\n\n")
	b.WriteString(generated("the JSON Schema package project makes from its Go types"))
	b.WriteString("\nThe schema itself is [pipe.schema.json](pipe.schema.json), beside this page; " +
		"name it in pipe.json's `\"$schema\"` for an editor's completion and checks. " +
		"A type links to the section that describes it.\n\n")
	for _, name := range defOrder(raw, defs, typed.Definitions) {
		def, ok := defs[name].(map[string]any)
		if !ok {
			return nil, fmt.Errorf("$defs/%s is not an object", name)
		}
		definition(&b, name, def, propertyOrder(typed.Definitions[name]))
	}
	return []byte(b.String()), nil
}

// propertyOrder answers the names of s's properties in the schema's order.
func propertyOrder(s *jsonschema.Schema) []string {
	if s == nil || s.Properties == nil {
		return nil
	}
	return slices.Collect(s.Properties.KeysFromOldest())
}

// defOrder answers the definitions' names: the root's, then each as the
// properties before it first refer to it, then any left, sorted.
func defOrder(root, defs map[string]any, typed jsonschema.Definitions) []string {
	var order []string
	seen := map[string]bool{}
	add := func(refs []string) {
		for _, r := range refs {
			if _, ok := defs[r]; ok && !seen[r] {
				seen[r] = true
				order = append(order, r)
			}
		}
	}
	add(refs(root["$ref"]))
	for i := 0; i < len(order); i++ {
		def, _ := defs[order[i]].(map[string]any)
		props, _ := def["properties"].(map[string]any)
		for _, p := range propertyOrder(typed[order[i]]) {
			add(refs(props[p]))
		}
	}
	add(slices.Sorted(maps.Keys(defs)))
	return order
}

// refs answers the names of the definitions v refers to, depth first.
func refs(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{path.Base(v)}
	case map[string]any:
		var out []string
		for _, k := range slices.Sorted(maps.Keys(v)) {
			if _, isMap := v[k].(map[string]any); isMap || k == "$ref" {
				out = append(out, refs(v[k])...)
			}
		}
		return out
	}
	return nil
}
