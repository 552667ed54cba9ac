package importrows_test

import (
	"context"
	"strings"
	"testing"

	"github.com/pipekit/pipe/importrows"
)

// A JSON value from NDJSON lands in a json or jsonb column as the JSON value
// it is — a string stays a string, never parsed as a document: the table
// holds what PostgreSQL makes of each value's own JSON text.
func TestNDJSONValuesLandInJSONColumnsAsThemselves(t *testing.T) {
	values := []string{`"42"`, `"true"`, `"{\"a\":1}"`, `"a string"`, `"é \u00e9 \" \\"`, `42`, `true`, `{"a": [1, "b"]}`, `[1, 2]`}
	var file strings.Builder
	for i, v := range values {
		file.WriteString(`{"id": ` + string(rune('1'+i)) + `, "j": ` + v + `, "k": ` + v + "}\n")
	}
	b := setup(t, `create table docs(id int primary key, j jsonb, k json)`)
	d, res := run(t, b.pool, importrows.MustNew(fileKey, tableOptions("docs", "id")), b.put(t, "docs.ndjson", []byte(file.String())))
	if d.State != "done" || res.Rows != int64(len(values)) || res.Refused != 0 {
		t.Fatalf("%s %+v %+v", d.State, res, d.LastError)
	}
	for i, v := range values {
		var same bool
		err := b.pool.QueryRow(context.Background(), `select j = $2::text::jsonb and k::text = $2::text from docs where id = $1`, i+1, v).Scan(&same)
		if err != nil || !same {
			t.Errorf("value %s did not land as itself (%v)", v, err)
		}
	}
}
