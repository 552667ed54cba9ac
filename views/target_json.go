package views

import (
	"encoding/json"
	"strings"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pg"
)

// UnmarshalJSON reads a Target, its view under "matview" as SQL writes it;
// or a Target stored before, its view under "view" as "view" or
// "schema.view" with the names taken exactly, as they were then.
func (t *Target) UnmarshalJSON(b []byte) error {
	type plain Target // Target's fields, without this method
	var old struct {
		View *string `json:"view"`
	}
	if err := json.Unmarshal(b, (*plain)(t)); err != nil {
		return err
	}
	if err := json.Unmarshal(b, &old); err != nil || old.View == nil {
		return err
	}
	if !t.View.IsZero() {
		return errcode.New(errcode.JobInputInvalid, "refresh: the input names its view twice, as matview and as view").
			WithFix("name the view once, in matview")
	}
	schema, name, dotted := strings.Cut(*old.View, ".")
	if !dotted {
		schema, name = "", schema
	}
	t.View = pg.Relation{Schema: schema, Name: name}
	return nil
}

// key is a refresh's idempotency key: the view, spelled as the key of a
// Target stored before "matview" spelled it (schema.view, raw), so a
// refresh asked for again after an upgrade is the one still live.
func (t Target) key() string {
	k := t.View.Name
	if t.View.Schema != "" {
		k = t.View.Schema + "." + k
	}
	if t.Concurrently {
		return k + " concurrently"
	}
	return k
}
