package coerce

import "testing"

func BenchmarkAppendCSV(b *testing.B) {
	for _, bc := range []struct {
		name, typ string
		in        Cell
	}{
		{"uuid", "uuid", str("A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11")},
		{"int8", "bigint", str("-9223372036854775808")},
		{"timestamptz", "timestamptz", str("2024-01-02T03:04:05.123456+02:00")},
		{"timestamptz-nanos", "timestamptz", str("2024-01-02T03:04:05.123456789Z")},
		{"text-quoted", "text", str(`a "quoted", multi-line` + "\n" + `value of some length`)},
		{"text-bare", "text", str("a plain value of some length")},
		{"numeric(12,2)", "numeric(12,2)", str("-1234567.895")},
		{"float8", "double precision", str("3.14159265358979")},
		{"bool", "boolean", str("TRUE")},
		{"date", "date", str("2024-02-29")},
		{"jsonb", "jsonb", raw(`{"a":[1,2,{"b":"c\u00e9"}],"d":1.5e3}`)},
		{"integer[]", "integer[]", str("{1,2,3,4,5,6,7,8}")},
		{"text[]-json", "text[]", str(`["a b","c\"d","e"]`)},
	} {
		typ := mustType(b, bc.typ)
		b.Run(bc.name, func(b *testing.B) {
			dst := make([]byte, 0, 4096)
			b.ReportAllocs()
			for b.Loop() {
				out, code := typ.AppendCSV(dst[:0], bc.in)
				if code != "" || len(out) == 0 {
					b.Fatal(code)
				}
			}
		})
	}
}
