package pg

import (
	"bytes"
	"encoding/json"
)

// MarshalText answers [Relation.String]: the name as SQL writes it, which
// UnmarshalText reads back to the same relation.
func (r Relation) MarshalText() ([]byte, error) {
	if r.IsZero() {
		return []byte{}, nil
	}
	return []byte(r.String()), nil
}

// UnmarshalText reads a name as [ParseRelation] does; empty text is the
// zero Relation. It lets a Relation be a flag (flag.TextVar).
func (r *Relation) UnmarshalText(text []byte) error {
	if len(bytes.TrimSpace(text)) == 0 {
		*r = Relation{}
		return nil
	}
	p, err := ParseRelation(string(text))
	if err != nil {
		return err
	}
	*r = p
	return nil
}

// MarshalJSON answers the name as a JSON string, as SQL writes it:
// "sales.orders", "sales.\"Order Items\"".
func (r Relation) MarshalJSON() ([]byte, error) {
	text, _ := r.MarshalText()
	return json.Marshal(string(text))
}

// UnmarshalJSON reads a JSON string as [ParseRelation] does ("" is the
// zero Relation), or an object {"schema": ..., "name": ...} whose names are
// taken exactly, as a Relation literal's are. null leaves r as it is.
func (r *Relation) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		return nil
	case len(b) > 0 && b[0] == '{':
		var o struct {
			Schema string `json:"schema"`
			Name   string `json:"name"`
		}
		if err := json.Unmarshal(b, &o); err != nil {
			return err
		}
		p := Relation{Schema: o.Schema, Name: o.Name}
		if err := p.Check(); err != nil {
			return err
		}
		*r = p
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	return r.UnmarshalText([]byte(s))
}

// JSONSchemaAlias makes a JSON Schema reflected from a type holding a
// Relation (github.com/invopop/jsonschema, as pipe's job manifests are)
// describe it as the string it is written as.
func (Relation) JSONSchemaAlias() any { return "" }
