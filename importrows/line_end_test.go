package importrows_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pipekit/pipe/importrows"
)

// A CSV file's line end is its first line's (see TestCSVEdgeCasesAgreeWithCOPY
// for COPY's reading beside pipe's): a header as long as the record limit is
// read whatever its line end, with a BOM before it or not.
func TestImportHeaderAtTheRecordLimitWithEveryLineEnd(t *testing.T) {
	b := setup(t, `create table ab(a text, b text)`)
	for _, bom := range []string{"", "\uFEFF"} {
		for name, end := range map[string]string{"lf": "\n", "crlf": "\r\n", "cr": "\r"} {
			t.Run(fmt.Sprintf("%s, bom %v", name, bom != ""), func(t *testing.T) {
				if _, err := b.pool.Exec(t.Context(), "truncate ab"); err != nil {
					t.Fatal(err)
				}
				o := tableOptions("ab")
				o.MaxRecordBytes = len("a,b")
				data := bom + strings.Join([]string{"a,b", "1,2", "3,4", ""}, end)
				d, res := run(t, b.pool, importrows.MustNew(fileKey, o), b.put(t, name+".csv", []byte(data)))
				if d.State != "done" || res.Rows != 2 || res.Refused != 0 {
					t.Fatalf("%s %+v %+v", d.State, res, d.LastError)
				}
				if got := count(t, b, "select count(*) from ab where (a, b) in (('1', '2'), ('3', '4'))"); got != 2 {
					t.Fatalf("%d rows read right, want 2", got)
				}
			})
		}
	}
}

// In a file of bare-CR lines, a line feed outside quotes refuses its row
// alone — COPY fails the file — reported by its line, never its value.
func TestImportBareCRFileRefusesALineFeedRow(t *testing.T) {
	b := setup(t, peopleDDL)
	data := "id,name\r1,a\r2,secret\n3,c\r4,\"d\ne\"\r"
	d, res := run(t, b.pool, importrows.MustNew(fileKey, tableOptions("people", "id")), b.put(t, "p.csv", []byte(data)))
	if d.State != "done" || res.Rows != 2 || res.Refused != 1 {
		t.Fatalf("%s %+v %+v", d.State, res, d.LastError)
	}
	if got := peopleRows(t, b); got != "1=a|4=d\ne" {
		t.Fatalf("table %q", got)
	}
	rep := readReport(t, b, d.RunID)
	if len(rep) != 1 || rep[0]["code"] != "X_IMPORT_RECORD_INVALID" || rep[0]["line"] != float64(3) || rep[0]["byteOffset"] != float64(12) {
		t.Fatalf("report %v", rep)
	}
	if strings.Contains(fmt.Sprint(rep), "secret") {
		t.Fatalf("the report holds the value: %v", rep)
	}
}

// NDJSON lines end at LF, a CRLF's CR dropped; a bare CR is JSON's white
// space wherever it stands, so two objects parted by one are one line,
// refused.
func TestImportNDJSONLineEnds(t *testing.T) {
	b := setup(t, peopleDDL)
	data := "{\"id\":1,\"name\":\"a\"}\r\n" +
		"\r{\"id\":2,\"name\":\"b\"}\r\n" +
		"{\"id\":3,\r\"name\":\"c\"}\n" +
		"{\"id\":4,\"name\":\"d\"}\r{\"id\":5,\"name\":\"e\"}\r\n" +
		"{\"id\":6,\"name\":\"f\"}\r"
	d, res := run(t, b.pool, importrows.MustNew(fileKey, tableOptions("people", "id")), b.put(t, "p.ndjson", []byte(data)))
	if d.State != "done" || res.Rows != 4 || res.Refused != 1 {
		t.Fatalf("%s %+v %+v", d.State, res, d.LastError)
	}
	if got := peopleRows(t, b); got != "1=a|2=b|3=c|6=f" {
		t.Fatalf("table %q", got)
	}
	if rep := readReport(t, b, d.RunID); len(rep) != 1 || rep[0]["code"] != "X_IMPORT_RECORD_INVALID" || rep[0]["line"] != float64(4) {
		t.Fatalf("report %v", rep)
	}
}
