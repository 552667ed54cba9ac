package coerce

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/google/uuid"
)

func TestValue(t *testing.T) {
	tokyo := time.FixedZone("", 9*3600)
	for _, c := range []struct {
		typ  string
		in   Cell
		want any
	}{
		{"text", str(" a "), " a "},
		{"text", str(""), ""},
		{"varchar(1)", bln(true), nil}, // refused: "true" is longer
		{"smallint", str("7"), int64(7)},
		{"integer", num("1e3"), int64(1000)},
		{"bigint", str("-9223372036854775808"), int64(math.MinInt64)},
		{"numeric(5,2)", str("1.005"), "1.01"},
		{"numeric", str("1e-3"), "0.001"},
		{"numeric", str("nan"), "NaN"},
		{"real", str("0.1"), float64(float32(0.1))},
		{"double precision", str("0.1"), 0.1},
		{"double precision", str("-infinity"), math.Inf(-1)},
		{"boolean", str("yes"), true},
		{"boolean", bln(false), false},
		{"uuid", str("A0EEBC999C0B4EF8BB6D6BB9BD380A11"), uuid.MustParse("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")},
		{"date", str("2024-02-29"), time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC)},
		{"timestamptz", str("2024-01-02T09:00:00.5+09:00"), time.Date(2024, 1, 2, 9, 0, 0, 5e8, tokyo).UTC()},
		{"timestamptz", str("2024-01-02 03:04:05"), time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)},
		{"timestamp", str("2024-01-02 03:04:05.25"), time.Date(2024, 1, 2, 3, 4, 5, 25e7, time.UTC)},
		{"timestamp(0)", str("2024-01-02 03:04:05.5"), time.Date(2024, 1, 2, 3, 4, 6, 0, time.UTC)},
		{"time", str("01:02:03.5"), time.Hour + 2*time.Minute + 3500*time.Millisecond},
		{"json", str(` {"a":1} `), json.RawMessage(`{"a":1}`)},
		{"jsonb", bln(true), json.RawMessage(`true`)},
		{"bytea", str(`\x00ff`), []byte{0, 0xff}},
		{"integer[]", str("{1,NULL,3}"), []any{int64(1), nil, int64(3)}},
		{"text[]", str(`["a",null]`), []any{"a", nil}},
		{"integer[]", str("[]"), []any{}},
		{"integer", str(" "), nil},
		{"text", null(), nil},
	} {
		got, _ := mustType(t, c.typ).Value(c.in)
		if gt, ok := got.(time.Time); ok && gt.Location() != time.UTC {
			t.Errorf("%s %s: Value %v is not in UTC", c.typ, show(c.in), gt)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %s: Value = %#v, want %#v", c.typ, show(c.in), got, c.want)
		}
	}
}

func TestValueDoesNotRetainInput(t *testing.T) {
	for _, typ := range []string{"json", "bytea", "text", "text[]"} {
		in := []byte(`["x"]`)
		if typ == "bytea" {
			in = []byte(`\x01`)
		}
		v, _ := mustType(t, typ).Value(Cell{Kind: String, Bytes: in})
		before := fmtValue(v)
		for i := range in {
			in[i] = 'z'
		}
		if after := fmtValue(v); after != before {
			t.Errorf("%s: Value changed with its input: %s, then %s", typ, before, after)
		}
	}
}

func fmtValue(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
