package coerce

import (
	"errors"
	"testing"

	"github.com/pipekit/pipe/errcode"
)

func TestParseType(t *testing.T) {
	for in, want := range map[string]string{
		"text":                          "text",
		"character varying(20)":         "character varying(20)",
		"VARCHAR( 20 )":                 "character varying(20)",
		"varchar":                       "character varying",
		"character(3)":                  "character(3)",
		"char":                          "character(1)",
		"bpchar":                        "bpchar",
		"int2":                          "smallint",
		"int":                           "integer",
		"int8":                          "bigint",
		"numeric(10,2)":                 "numeric(10,2)",
		"decimal(10)":                   "numeric(10,0)",
		"numeric(5,-2)":                 "numeric(5,-2)",
		"numeric":                       "numeric",
		"float4":                        "real",
		"float":                         "double precision",
		"double  precision":             "double precision",
		"bool":                          "boolean",
		"uuid":                          "uuid",
		"date":                          "date",
		"timestamptz":                   "timestamp with time zone",
		"timestamp(3) with time zone":   "timestamp(3) with time zone",
		"timestamp(0)":                  "timestamp(0) without time zone",
		"timestamp without time zone":   "timestamp without time zone",
		"time":                          "time without time zone",
		"json":                          "json",
		"jsonb":                         "jsonb",
		"bytea":                         "bytea",
		"integer[]":                     "integer[]",
		"character varying(10)[]":       "character varying(10)[]",
		"timestamp(3) with time zone[]": "timestamp(3) with time zone[]",
	} {
		typ, err := ParseType(in)
		if err != nil {
			t.Errorf("ParseType(%q): %v", in, err)
			continue
		}
		if got := typ.String(); got != want {
			t.Errorf("ParseType(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestParseTypeRefuses(t *testing.T) {
	for _, in := range []string{
		"", "money", "point", "integer[][]", "int4range", "varchar(0)", "varchar(x)", "numeric(1001)",
		"numeric(5,1001)", "numeric(1,2,3)", "timestamp(7)", "integer(3)", "text(1)", "uuid(", "time with time zone",
		`"char"`, "interval",
		// A scale past 32 bits was cut to one in bounds (found by FuzzParseType).
		"numeric(10,4294967298)", "numeric(10,-4294967296)", "varchar(4294967297)", "timestamp(4294967296)",
	} {
		_, err := ParseType(in)
		if !errors.Is(err, errcode.ImportTableInvalid) {
			t.Errorf("ParseType(%q) = %v, want X_IMPORT_TABLE_INVALID", in, err)
		}
	}
}

func TestZeroTypeRefuses(t *testing.T) {
	var typ Type
	if _, code := typ.AppendCSV(nil, str("1")); code != errcode.ImportFieldInvalid {
		t.Errorf("zero Type accepted a cell: %q", code)
	}
	if typ.String() != "invalid" {
		t.Errorf("zero Type is %s", typ)
	}
}
