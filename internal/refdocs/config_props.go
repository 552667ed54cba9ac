package refdocs

import (
	"encoding/json"
	"maps"
	"path"
	"slices"
	"strings"
)

// shown are the keywords of a property its table row shows in their own
// columns, or that a definition's section shows apart.
var shown = map[string]bool{
	"$ref": true, "type": true, "description": true, "items": true, "title": true,
	"properties": true, "required": true, "additionalProperties": true,
}

// definition writes one definition's section on b: its description and a
// row for each property, in order.
func definition(b *strings.Builder, name string, def map[string]any, order []string) {
	b.WriteString("## " + name + "\n\n")
	if d, _ := def["description"].(string); d != "" {
		b.WriteString(prose(d, "") + "\n\n")
	}
	props, _ := def["properties"].(map[string]any)
	required := map[string]bool{}
	list, _ := def["required"].([]any)
	for _, r := range list {
		required[r.(string)] = true
	}
	var rows [][]string
	for _, p := range order {
		prop, _ := props[p].(map[string]any)
		req := ""
		if required[p] {
			req = "yes"
		}
		desc, _ := prop["description"].(string)
		rows = append(rows, []string{code(p), typeOf(prop), req, constraints(prop), prose(desc, "")})
	}
	if len(rows) > 0 {
		table(b, []string{"property", "type", "required", "constraints", "description"}, rows)
	}
	if def["additionalProperties"] == false {
		b.WriteString("No other property is allowed.\n\n")
	}
	if rest := constraints(def); rest != "" {
		b.WriteString("Also: " + rest + ".\n\n")
	}
}

// typeOf answers a property's type: a link to the definition it refers
// to, an array's or a map's of its items' type, or its JSON type.
func typeOf(p map[string]any) string {
	if ref, ok := p["$ref"].(string); ok {
		name := path.Base(ref)
		return "[" + name + "](#" + anchor(name) + ")"
	}
	switch t := p["type"].(type) {
	case string:
		if items, ok := p["items"].(map[string]any); ok && t == "array" {
			return "array of " + typeOf(items)
		}
		if values, ok := p["additionalProperties"].(map[string]any); ok && t == "object" {
			return "object of " + typeOf(values)
		}
		return code(t)
	case []any:
		names := make([]string, len(t))
		for i, n := range t {
			names[i] = code(value(n))
		}
		return strings.Join(names, " or ")
	}
	return "any"
}

// constraints answers a property's keywords the other columns do not
// show, and its items', in words where the keyword is a common one.
func constraints(p map[string]any) string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(p)) {
		if !shown[k] {
			out = append(out, constraint(k, p[k]))
		}
	}
	if items, ok := p["items"].(map[string]any); ok {
		if c := constraints(items); c != "" {
			out = append(out, "each item: "+c)
		}
	}
	return strings.Join(out, "; ")
}

// constraint answers one keyword and its value in words.
func constraint(k string, v any) string {
	words := map[string]string{
		"minLength": "length ≥ ", "maxLength": "length ≤ ", "minimum": "≥ ", "maximum": "≤ ",
		"exclusiveMinimum": "> ", "exclusiveMaximum": "< ", "minItems": "items ≥ ", "maxItems": "items ≤ ",
	}
	switch {
	case words[k] != "":
		return words[k] + value(v)
	case k == "enum":
		list, _ := v.([]any)
		names := make([]string, len(list))
		for i, e := range list {
			names[i] = code(value(e))
		}
		return "one of " + strings.Join(names, ", ")
	case k == "pattern":
		return "matches " + code(value(v))
	case k == "default":
		return "default " + code(value(v))
	}
	return k + " " + code(value(v))
}

// value answers a JSON value as text: a string as itself, anything else
// as JSON.
func value(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "?"
	}
	return string(b)
}
