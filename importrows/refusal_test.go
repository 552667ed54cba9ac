package importrows_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/pipekit/pipe/importrows"
)

func TestImportHeaderMismatchFailsBeforeAnyRow(t *testing.T) {
	cases := map[string]string{
		"missing column":   "id,org_id,total,created_at\n",
		"unknown column":   "id,org_id,total,note,created_at,colour\n",
		"repeated column":  "id,org_id,total,note,created_at,note\n",
		"empty file":       "",
		"a BOM alone":      "\xEF\xBB\xBF",
		"only blank lines": "\n\r\n\n",
	}
	for name, header := range cases {
		t.Run(name, func(t *testing.T) {
			b := setup(t, ordersDDL)
			data := header
			if strings.Contains(header, "id") {
				data += "00000000-0000-4000-8000-000000000001,00000000-0000-4000-8000-000000000001,1,n,2026-01-01T00:00:00Z\n"
			}
			o := tableOptions("orders", "id")
			o.Columns = []string{"id", "org_id", "total", "note", "created_at"}
			d, _ := run(t, b.pool, importrows.MustNew(fileKey, o), b.put(t, "o.csv", []byte(data)))
			if d.State != "dead" || lastCode(d) != "X_IMPORT_HEADER_MISMATCH" {
				t.Fatalf("%s %+v: want failed with X_IMPORT_HEADER_MISMATCH", d.State, d.LastError)
			}
			if d.Attempt != 1 {
				t.Fatalf("a header mismatch was tried %d times; it is terminal", d.Attempt)
			}
			if n := count(t, b, `select count(*) from orders`); n != 0 {
				t.Fatalf("%d rows written", n)
			}
		})
	}
}

// A header mismatch names the missing columns, and the header's unknown
// names (the user's column names, not data) with their positions and the
// column each nearly matches; matching is exact.
func TestImportHeaderMismatchNamesMissingAndUnknown(t *testing.T) {
	b := setup(t, ordersDDL)
	o := tableOptions("orders", "id")
	o.Columns = []string{"id", "org_id", "total", "note", "created_at"}
	d, _ := run(t, b.pool, importrows.MustNew(fileKey, o), b.put(t, "o.csv", []byte("id,Org_ID,total,colour,created_at\n")))
	msg := d.LastError.Message
	for _, want := range []string{"missing org_id, note", `unknown "Org_ID" (column 2; did you mean org_id?), "colour" (column 4)`} {
		if !strings.Contains(msg, want) {
			t.Fatalf("message %q does not say %s", msg, want)
		}
	}
	if !strings.Contains(d.LastError.Fix, "names match exactly") {
		t.Fatalf("fix %q does not say that matching is exact", d.LastError.Fix)
	}
}

func TestImportTooManyErrors(t *testing.T) {
	b := setup(t, `create table n(k int primary key)`)
	var sb strings.Builder
	sb.WriteString("k\n")
	for i := range 4000 {
		if i%1000 == 999 {
			sb.WriteString("x\n") // refused: not an integer
		} else {
			sb.WriteString(strings.Repeat(" ", 20) + strconv.Itoa(i) + "\n")
		}
	}
	in := b.put(t, "n.csv", []byte(sb.String()))
	o := tableOptions("n", "k")
	o.PageBytes = 64 << 10 // two pages: the second holds the third refusal
	two := 2
	o.MaxRowErrors = &two
	d, _ := run(t, b.pool, importrows.MustNew(fileKey, o), in)
	if d.State != "dead" || lastCode(d) != "X_IMPORT_TOO_MANY_ERRORS" {
		t.Fatalf("%s %+v", d.State, d.LastError)
	}
	if rep := readReport(t, b, d.RunID); len(rep) != 3 {
		t.Fatalf("report has %d refusals, want the 3 read (the third crossed the limit)", len(rep))
	}
	// The page that crossed the limit was not written; the pages before it were.
	n := count(t, b, `select count(*) from n`)
	if n == 0 || n >= 2997 {
		t.Fatalf("%d rows written: want the pages before the crossing page only", n)
	}
}

func TestImportZeroErrorsAllowed(t *testing.T) {
	b := setup(t, `create table n(k int primary key)`)
	o := tableOptions("n", "k")
	zero := 0
	o.MaxRowErrors = &zero
	d, _ := run(t, b.pool, importrows.MustNew(fileKey, o), b.put(t, "n.csv", []byte("k\n1\nx\n3\n")))
	if lastCode(d) != "X_IMPORT_TOO_MANY_ERRORS" || count(t, b, `select count(*) from n`) != 0 {
		t.Fatalf("%s %+v: with MaxRowErrors 0 the first refusal fails the run and the page is not written", d.State, d.LastError)
	}
}

func TestImportRecordTooLarge(t *testing.T) {
	b := setup(t, `create table n(k int primary key, s text)`)
	data := "k,s\n1,ok\n2,\"unclosed quote\n" + strings.Repeat("x,y\n", 20000)
	o := tableOptions("n", "k")
	d, _ := run(t, b.pool, importrows.MustNew(fileKey, o), b.put(t, "n.csv", []byte(data)))
	if d.State != "dead" || lastCode(d) != "X_IMPORT_RECORD_TOO_LARGE" {
		t.Fatalf("%s %+v", d.State, d.LastError)
	}
	if d.LastError.Meta["byteOffset"] != "9" {
		t.Fatalf("meta %v: want the unclosed record's offset 9", d.LastError.Meta)
	}
}

func TestImportNotNullAndFormSemantics(t *testing.T) {
	b := setup(t, `create table f(k int primary key, name text not null, qty int not null, ok boolean)`)
	data := "k,name,qty,ok\n1,,5, yes \n2,x,,no\n3,\"\",7,\n"
	d, res := run(t, b.pool, importrows.MustNew(fileKey, tableOptions("f", "k")), b.put(t, "f.csv", []byte(data)))
	if d.State != "done" || res.Rows != 2 || res.Refused != 1 {
		t.Fatalf("%s %+v %+v", d.State, res, d.LastError)
	}
	rep := readReport(t, b, d.RunID)
	if rep[0]["field"] != "qty" || rep[0]["code"] != "X_IMPORT_FIELD_REQUIRED" {
		t.Fatalf("refusal %v", rep[0])
	}
	if n := count(t, b, `select count(*) from f where k = 1 and name = '' and ok`); n != 1 {
		t.Fatal("an empty field for a NOT NULL text column is an empty string; ' yes ' is true")
	}
}

func TestImportRefusesHostileKeys(t *testing.T) {
	b := setup(t, ordersDDL)
	for _, key := range []string{"../etc/passwd", "/etc/passwd", "a//b.csv", "a/../../b.csv"} {
		in := fileIn{Bucket: "file://" + b.dir, Key: key, Run: key}
		d, _ := run(t, b.pool, importrows.MustNew(fileKey, tableOptions("orders", "id")), in)
		if d.State != "dead" || lastCode(d) != "X_BLOB_KEY_INVALID" {
			t.Fatalf("key %q: %s %+v", key, d.State, d.LastError)
		}
		if strings.Contains(d.LastError.Message, "passwd") {
			t.Fatalf("the refusal quotes the key: %q", d.LastError.Message)
		}
	}
}

func TestImportTableWithoutUniqueKeyIsRefused(t *testing.T) {
	b := setup(t, `create table nk(k int, v int)`)
	d, _ := run(t, b.pool, importrows.MustNew(fileKey, tableOptions("nk", "k")), b.put(t, "x.csv", []byte("k,v\n1,2\n")))
	if lastCode(d) != "X_IMPORT_TABLE_INVALID" {
		t.Fatalf("%s %+v", d.State, d.LastError)
	}
}

func TestImportConstraintRefusalNamesNoValue(t *testing.T) {
	b := setup(t, `create table c(k int primary key, v int check (v < 10))`)
	d, _ := run(t, b.pool, importrows.MustNew(fileKey, tableOptions("c", "k")), b.put(t, "c.csv", []byte("k,v\n1,12345\n")))
	if lastCode(d) != "X_IMPORT_WRITE_REFUSED" || strings.Contains(d.LastError.Message, "12345") {
		t.Fatalf("%s %+v", d.State, d.LastError)
	}
	if count(t, b, `select count(*) from c`) != 0 {
		t.Fatal("a refused page was written")
	}
}

func TestDeclarationFaults(t *testing.T) {
	_, err := importrows.New(nil, importrows.Options[fileIn]{PageBytes: 10})
	if err == nil {
		t.Fatal("an empty declaration was accepted")
	}
	for _, want := range []string{"Name", "idempotency key", "Source", "Errors", "Into and Handle", "PageBytes"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %s", err, want)
		}
	}
}
