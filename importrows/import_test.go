package importrows_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pipekit/pipe/importrows"
)

const ordersDDL = `create table orders(
	id uuid primary key, org_id uuid not null, total bigint not null, note text, created_at timestamptz not null)`

// ordersCSV writes n orders with the awkward cases of a real export: quoted
// commas, doubled quotes, newlines in quotes, multibyte characters.
func ordersCSV(n int) []byte {
	notes := []string{`plain`, `"with, comma"`, `"say ""hi"""`, "\"two\nlines\"", `Zoë Ærøskøbing`, `東京 注文`, `emoji 🚀 rocket`, ``}
	var b bytes.Buffer
	b.WriteString("id,org_id,total,note,created_at\r\n")
	for i := range n {
		fmt.Fprintf(&b, "%08x-0000-4000-8000-%012x,00000000-0000-4000-8000-%012x,%d,%s,2026-%02d-%02dT%02d:00:00Z\r\n",
			i, i, i%7, i*3, notes[i%len(notes)], 1+i%12, 1+i%28, i%24)
	}
	return b.Bytes()
}

func count(t *testing.T, b *bundle, sql string) int64 {
	t.Helper()
	var n int64
	if err := b.pool.QueryRow(context.Background(), sql).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestImportCSVIntoTable(t *testing.T) {
	b := setup(t, ordersDDL)
	in := b.put(t, "in/orders.csv", ordersCSV(2000))
	o := tableOptions("orders", "id")
	o.PageBytes = 64 << 10
	d, res := run(t, b.pool, importrows.MustNew(fileKey, o), in)
	if d.State != "done" {
		t.Fatalf("state %s, error %+v", d.State, d.LastError)
	}
	if res.Rows != 2000 || res.Refused != 0 || res.Pages < 3 {
		t.Fatalf("result %+v: want 2000 rows, none refused, several pages", res)
	}
	if n := count(t, b, `select count(*) from orders`); n != 2000 {
		t.Fatalf("%d rows in the table, want 2000", n)
	}
	if n := count(t, b, `select count(*) from orders where note = 'two
lines' or note = 'say "hi"' or note = 'with, comma'`); n != 750 {
		t.Fatalf("%d quoted notes came through intact, want 750", n)
	}
	if n := count(t, b, `select count(*) from orders where note is null`); n != 250 {
		t.Fatalf("%d empty notes read as NULL, want 250", n)
	}
	if n := count(t, b, `select count(*) from orders where note = '東京 注文' or note = 'emoji 🚀 rocket'`); n != 500 {
		t.Fatalf("%d multibyte notes intact, want 500", n)
	}
}

func TestImportUpsertsOnTheKey(t *testing.T) {
	b := setup(t, ordersDDL)
	in := b.put(t, "orders.csv", ordersCSV(100))
	job := importrows.MustNew(fileKey, tableOptions("orders", "id"))
	if d, _ := run(t, b.pool, job, in); d.State != "done" {
		t.Fatalf("first import: %s %+v", d.State, d.LastError)
	}
	if _, err := b.pool.Exec(context.Background(), `update orders set total = -1`); err != nil {
		t.Fatal(err)
	}
	in.Run = "again"
	if d, _ := run(t, b.pool, job, in); d.State != "done" {
		t.Fatalf("second import: %s %+v", d.State, d.LastError)
	}
	if n := count(t, b, `select count(*) from orders where total = -1`); n != 0 {
		t.Fatalf("%d rows kept the old total; the upsert should overwrite them", n)
	}
	if n := count(t, b, `select count(*) from orders`); n != 100 {
		t.Fatalf("%d rows after importing twice, want 100", n)
	}
}

func TestImportRepeatedKeyInOnePageLastWins(t *testing.T) {
	b := setup(t, `create table kv(k text primary key, v int not null)`)
	in := b.put(t, "kv.csv", []byte("k,v\na,1\nb,2\na,3\n"))
	d, res := run(t, b.pool, importrows.MustNew(fileKey, tableOptions("kv", "k")), in)
	if d.State != "done" || res.Rows != 3 {
		t.Fatalf("%s %+v %+v", d.State, res, d.LastError)
	}
	if n := count(t, b, `select v from kv where k = 'a'`); n != 3 {
		t.Fatalf("a = %d, want the last row's 3", n)
	}
}

func TestImportWithoutKeyInserts(t *testing.T) {
	b := setup(t, `create table events(at date not null, n int)`)
	in := b.put(t, "e.csv", []byte("n,at\n1,2026-01-01\n,2026-01-02\n"))
	d, res := run(t, b.pool, importrows.MustNew(fileKey, tableOptions("events")), in)
	if d.State != "done" || res.Rows != 2 {
		t.Fatalf("%s %+v %+v", d.State, res, d.LastError)
	}
	if n := count(t, b, `select count(*) from events where n is null and at = '2026-01-02'`); n != 1 {
		t.Fatal("the header's column order was not followed")
	}
}

// readReport answers the refusals of the run's report, every part.
func readReport(t *testing.T, b *bundle, runID string) []map[string]any {
	t.Helper()
	parts, _ := filepath.Glob(filepath.Join(b.dir, "errors", runID, "errors-*.ndjson"))
	var out []map[string]any
	for _, p := range parts {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Fatal(err)
			}
			out = append(out, m)
		}
		f.Close()
	}
	return out
}

func TestImportReportsRefusedRowsWithoutTheirValues(t *testing.T) {
	b := setup(t, ordersDDL)
	data := string(ordersCSV(10))
	lines := strings.Split(data, "\r\n")
	f := strings.SplitN(lines[3], ",", 4)
	f[2] = "SECRET-VALUE" // total is not a number
	lines[3] = strings.Join(f, ",")
	lines[6] += ",extra" // one field too many; line 8, after a note of two lines
	in := b.put(t, "o.csv", []byte(strings.Join(lines, "\r\n")))
	d, res := run(t, b.pool, importrows.MustNew(fileKey, tableOptions("orders", "id")), in)
	if d.State != "done" || res.Rows != 8 || res.Refused != 2 {
		t.Fatalf("%s %+v %+v", d.State, res, d.LastError)
	}
	rep := readReport(t, b, d.RunID)
	if len(rep) != 2 {
		t.Fatalf("report %v: want 2 refusals", rep)
	}
	if rep[0]["line"] != float64(4) || rep[0]["field"] != "total" || rep[0]["code"] != "X_IMPORT_FIELD_INVALID" {
		t.Fatalf("first refusal %v", rep[0])
	}
	if rep[1]["line"] != float64(8) || rep[1]["code"] != "X_IMPORT_RECORD_INVALID" {
		t.Fatalf("second refusal %v", rep[1])
	}
	off := int64(rep[0]["byteOffset"].(float64))
	if !strings.HasPrefix(data[off:], lines[3][:8]) {
		t.Fatalf("byteOffset %d does not point at the refused record", off)
	}
	raw, _ := json.Marshal(rep)
	if bytes.Contains(raw, []byte("SECRET")) {
		t.Fatal("the report quotes the refused value")
	}
	if res.ErrorPrefix == "" || !strings.Contains(res.ErrorPrefix, d.RunID) {
		t.Fatalf("errorPrefix %q does not name the run's report", res.ErrorPrefix)
	}
}
