package coerce_test

import (
	"fmt"

	"github.com/pipekit/pipe/importrows/internal/coerce"
)

func ExampleType_AppendCSV() {
	price, _ := coerce.ParseType("numeric(8,2)")
	tags, _ := coerce.ParseType("text[]")
	var row []byte
	row, _ = price.AppendCSV(row, coerce.Cell{Kind: coerce.String, Bytes: []byte(" 12.345 ")})
	row = append(row, ',')
	row, _ = tags.AppendCSV(row, coerce.Cell{Kind: coerce.String, Bytes: []byte(`["red", "dark blue"]`)})
	fmt.Println(string(row))
	_, code := price.AppendCSV(nil, coerce.Cell{Kind: coerce.String, Bytes: []byte("1e7")})
	fmt.Println(code)
	// Output:
	// 12.35,"{red,""dark blue""}"
	// X_IMPORT_FIELD_INVALID
}

func ExampleType_Value() {
	at, _ := coerce.ParseType("timestamp with time zone")
	v, _ := at.Value(coerce.Cell{Kind: coerce.String, Bytes: []byte("2024-01-02 03:04:05+02:00")})
	fmt.Println(v)
	// Output:
	// 2024-01-02 01:04:05 +0000 UTC
}
