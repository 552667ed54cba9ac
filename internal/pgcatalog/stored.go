package pgcatalog

import (
	"encoding/json"

	"github.com/pipekit/pipe/pg"
)

// StoredTable reads the table a stock job's input named before its
// relation was a pg.Relation: its exact schema and name under "schema" and
// "table". found is false when the input holds neither.
func StoredTable(input []byte) (r pg.Relation, found bool, err error) {
	var old struct {
		Schema string `json:"schema"`
		Table  string `json:"table"`
	}
	if err := json.Unmarshal(input, &old); err != nil || old.Schema == "" && old.Table == "" {
		return pg.Relation{}, false, err
	}
	return pg.Relation{Schema: old.Schema, Name: old.Table}, true, nil
}
