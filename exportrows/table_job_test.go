package exportrows_test

import (
	"strings"
	"testing"

	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/pg"
)

// The stock job, as `pipe export` enqueues it: a table, a filter, columns,
// a destination URL.
func TestTableJob(t *testing.T) {
	b := setup(t, `create schema shop; create table shop.orders(id int primary key, org text, total int);
		insert into shop.orders select i, 'org' || (i % 2), i * 10 from generate_series(1, 9) i`)
	in := exportrows.TableExport{
		From: pg.Relation{Schema: "shop", Name: "orders"}, Columns: []string{"id", "total"}, Where: "org = 'org1'",
		To: b.bucket, Format: exportrows.NDJSON, Compression: "gzip", PageRows: 3,
	}
	d, res := run(t, b.pool, exportrows.TableJob(), in)
	if d.State != "done" || d.Name != exportrows.TableJobName {
		t.Fatalf("%s %s: %s", d.Name, d.State, lastError(d))
	}
	bk, m := manifestOf(t, res)
	var lines []string
	for _, p := range m.Parts {
		if !strings.HasSuffix(p.Key, ".ndjson.gz") {
			t.Errorf("part %s", p.Key)
		}
		lines = append(lines, strings.TrimSpace(string(decoded(t, bk, p.Key))))
	}
	want := `{"id":1,"total":10}` + "\n" + `{"id":3,"total":30}` + "\n" + `{"id":5,"total":50}|{"id":7,"total":70}` + "\n" + `{"id":9,"total":90}`
	if got := strings.Join(lines, "|"); got != want || m.Name != "shop.orders" || m.Source != "table" {
		t.Fatalf("parts %q, manifest %s %s", got, m.Name, m.Source)
	}
}
