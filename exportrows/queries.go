package exportrows

import (
	"embed"
	"strings"
)

// The catalog statements live in queries/*.sql, one statement a file.
//
//go:embed queries/*.sql
var queryFiles embed.FS

func mustQuery(name string) string {
	b, err := queryFiles.ReadFile("queries/" + name + ".sql")
	if err != nil {
		panic("exportrows: missing query " + name)
	}
	return strings.TrimSpace(string(b))
}

var (
	sqlTableOID     = mustQuery("table_oid")
	sqlTableColumns = mustQuery("table_columns")
	sqlPrimaryKey   = mustQuery("primary_key")
	sqlUniqueKeys   = mustQuery("unique_keys")
	sqlColumnTypes  = mustQuery("column_types")
	sqlNow          = mustQuery("now")
	sqlSession      = mustQuery("session")
)
