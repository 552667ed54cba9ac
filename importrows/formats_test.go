package importrows_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"testing"

	"github.com/klauspost/compress/zstd"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"

	"github.com/pipekit/pipe/importrows"
)

const peopleDDL = `create table people(id int primary key, name text not null)`

const peopleCSV = "id,name\n1,Zoë\n2,\"Ærø, \"\"the\"\" isle\"\n3,plain\n"

// peopleRows answers the table as one string, for comparing imports.
func peopleRows(t *testing.T, b *bundle) string {
	t.Helper()
	var s string
	err := b.pool.QueryRow(context.Background(), `select coalesce(string_agg(id || '=' || name, '|' order by id), '') from people`).Scan(&s)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

const wantPeople = `1=Zoë|2=Ærø, "the" isle|3=plain`

func importPeople(t *testing.T, key string, data []byte, src func(*importrows.Source)) {
	t.Helper()
	b := setup(t, peopleDDL)
	o := tableOptions("people", "id")
	if src != nil {
		base := o.Source
		o.Source = func(in fileIn) importrows.Source {
			s := base(in)
			src(&s)
			return s
		}
	}
	d, res := run(t, b.pool, importrows.MustNew(fileKey, o), b.put(t, key, data))
	if d.State != "done" || res.Rows != 3 {
		t.Fatalf("%s %+v %+v", d.State, res, d.LastError)
	}
	if got := peopleRows(t, b); got != wantPeople {
		t.Fatalf("table %q, want %q", got, wantPeople)
	}
}

func TestImportUTF8WithBOM(t *testing.T) {
	importPeople(t, "p.csv", append([]byte("\xEF\xBB\xBF"), peopleCSV...), nil)
}

func TestImportUTF16WithBOM(t *testing.T) {
	for name, enc := range map[string]encoding.Encoding{
		"le": unicode.UTF16(unicode.LittleEndian, unicode.UseBOM),
		"be": unicode.UTF16(unicode.BigEndian, unicode.UseBOM),
	} {
		t.Run(name, func(t *testing.T) {
			data, err := enc.NewEncoder().Bytes([]byte(peopleCSV))
			if err != nil {
				t.Fatal(err)
			}
			importPeople(t, "p.csv", data, nil) // the BOM says UTF-16
		})
	}
}

func TestImportLatin1(t *testing.T) {
	data, err := charmap.ISO8859_1.NewEncoder().Bytes([]byte(peopleCSV))
	if err != nil {
		t.Fatal(err)
	}
	importPeople(t, "p.csv", data, func(s *importrows.Source) { s.Encoding = "latin-1" })
}

func TestImportGzipAndZstd(t *testing.T) {
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte(peopleCSV))
	w.Close()
	t.Run("gzip", func(t *testing.T) { importPeople(t, "p.csv.gz", gz.Bytes(), nil) })
	enc, _ := zstd.NewWriter(nil)
	zs := enc.EncodeAll([]byte(peopleCSV), nil)
	t.Run("zstd detected", func(t *testing.T) {
		importPeople(t, "p.data", zs, func(s *importrows.Source) { s.Format = importrows.CSV })
	})
}

func TestImportNDJSON(t *testing.T) {
	data := "{\"id\":1,\"name\":\"Zoë\"}\n\n{\"name\":\"Ærø, \\\"the\\\" isle\",\"id\":2}\r\n{\"id\":\"3\",\"name\":\"plain\"}"
	importPeople(t, "p.ndjson", []byte(data), nil)
}

func TestImportNDJSONRefusesUnknownKeysAndBadJSON(t *testing.T) {
	b := setup(t, peopleDDL)
	data := "{\"id\":1,\"name\":\"a\"}\n{\"id\":2,\"colour\":\"red\",\"name\":\"b\"}\n{not json\n{\"id\":4,\"name\":\"d\"}\n"
	d, res := run(t, b.pool, importrows.MustNew(fileKey, tableOptions("people", "id")), b.put(t, "p.jsonl", []byte(data)))
	if d.State != "done" || res.Rows != 2 || res.Refused != 2 {
		t.Fatalf("%s %+v %+v", d.State, res, d.LastError)
	}
	rep := readReport(t, b, d.RunID)
	if rep[0]["code"] != "X_IMPORT_FIELD_UNKNOWN" || rep[1]["code"] != "X_IMPORT_RECORD_INVALID" || rep[1]["line"] != float64(3) {
		t.Fatalf("report %v", rep)
	}
}

func TestImportTSV(t *testing.T) {
	importPeople(t, "p.tsv", []byte("id\tname\n1\tZoë\n2\t\"Ærø, \"\"the\"\" isle\"\n3\tplain\n"), nil)
}

func TestImportCorruptAndMisencodedFiles(t *testing.T) {
	cases := []struct {
		name, key, code string
		data            []byte
		src             func(*importrows.Source)
	}{
		{"gzip cut short", "p.csv.gz", "X_COMPRESSION_INVALID", gzipped(peopleCSV)[:30], nil},
		{"utf-16 named, no BOM", "p.csv", "X_ENCODING_INVALID", []byte("i\x00d\x00\n\x00"), func(s *importrows.Source) { s.Encoding = "utf-16" }},
		{"unknown encoding", "p.csv", "X_ENCODING_INVALID", []byte(peopleCSV), func(s *importrows.Source) { s.Encoding = "ebcdic" }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := setup(t, peopleDDL)
			o := tableOptions("people", "id")
			if c.src != nil {
				base := o.Source
				o.Source = func(in fileIn) importrows.Source { s := base(in); c.src(&s); return s }
			}
			d, _ := run(t, b.pool, importrows.MustNew(fileKey, o), b.put(t, c.key, c.data))
			if d.State != "dead" || lastCode(d) != c.code {
				t.Fatalf("%s %+v: want dead with %s", d.State, d.LastError, c.code)
			}
		})
	}
}

func TestImportRefusesInvalidUTF8InAField(t *testing.T) {
	b := setup(t, peopleDDL)
	d, res := run(t, b.pool, importrows.MustNew(fileKey, tableOptions("people", "id")), b.put(t, "p.csv", []byte("id,name\n1,ok\n2,bad\xff\xfe\n")))
	if d.State != "done" || res.Rows != 1 || res.Refused != 1 {
		t.Fatalf("%s %+v %+v", d.State, res, d.LastError)
	}
	if rep := readReport(t, b, d.RunID); rep[0]["field"] != "name" || rep[0]["code"] != "X_IMPORT_FIELD_INVALID" {
		t.Fatalf("report %v", rep)
	}
}

func gzipped(s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}
