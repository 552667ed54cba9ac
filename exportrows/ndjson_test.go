package exportrows_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/pipekit/pipe/exportrows"
)

// typesDDL is a table of every type the formats map, one full row and one
// of NULLs.
const typesDDL = `create table types(id bigint primary key, s smallint, i int, big bigint, r real, d float8,
	n numeric(10,2), nbig numeric(30,5), nfree numeric, b boolean, t text, u uuid, tz timestamptz,
	ts timestamp, dt date, j json, jb jsonb, raw bytea, ia int[], ta text[], na numeric[], iv interval);
	insert into types values
		(1, -32768, 2147483647, 9007199254740993, 1.5, 0.1, -12345678.90, 123456789012345678901234.56789,
		 '3.14159265358979323846264338327950288419', true, e'Zoë "q" \\ \n\t東京', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
		 '2024-01-02 03:04:05.123456+00', '2024-01-02 03:04:05', '2024-02-29', e'{"a": [1, 2],\n "b": null}',
		 '{"k": "v", "n": 1.50}', '\x00ff', '{1,null,3}', '{"a","b c",null}', '{1.50,null}', '1 day 02:00:00'),
		(2, null, null, null, 'NaN', '-Infinity', null, null, null, null, null, null, null, null, null, null,
		 null, null, '{}', null, null, null)`

func TestNDJSONTypes(t *testing.T) {
	b := setup(t, typesDDL)
	in := b.in(t, "types")
	in.Format = exportrows.NDJSON
	res := b.export(t, options(), in)
	bk, m := manifestOf(t, res)
	lines := bytes.Split(bytes.TrimSuffix(decoded(t, bk, m.Parts[0].Key), []byte("\n")), []byte("\n"))
	if len(lines) != 2 {
		t.Fatalf("%d lines", len(lines))
	}
	want := []string{
		`{"id":1,"s":-32768,"i":2147483647,"big":9007199254740993,"r":1.5,"d":0.1,"n":"-12345678.90",` +
			`"nbig":"123456789012345678901234.56789","nfree":"3.14159265358979323846264338327950288419","b":true,` +
			`"t":"Zoë \"q\" \\ \n\t東京","u":"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11","tz":"2024-01-02T03:04:05.123456Z",` +
			`"ts":"2024-01-02T03:04:05","dt":"2024-02-29","j":{"a":[1,2],"b":null},"jb":{"k": "v", "n": 1.50},` +
			`"raw":"\\x00ff","ia":[1,null,3],"ta":["a","b c",null],"na":["1.50",null],"iv":"1 day 02:00:00"}`,
		`{"id":2,"s":null,"i":null,"big":null,"r":"NaN","d":"-Infinity","n":null,"nbig":null,"nfree":null,"b":null,` +
			`"t":null,"u":null,"tz":null,"ts":null,"dt":null,"j":null,"jb":null,"raw":null,"ia":[],"ta":null,"na":null,"iv":null}`,
	}
	for i, l := range lines {
		if string(l) != want[i] {
			t.Errorf("line %d:\n%s\nwant\n%s", i+1, l, want[i])
		}
		if !json.Valid(l) {
			t.Errorf("line %d is not JSON", i+1)
		}
	}
}
