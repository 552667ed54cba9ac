package importrows

import (
	"embed"

	"github.com/pipekit/pipe/internal/sqlfile"
)

// The catalog statements live in queries/*.sql, one statement a file.
//
//go:embed queries/*.sql
var queryFiles embed.FS

var mustQuery = sqlfile.Reader(queryFiles, "importrows")

var (
	sqlTableOID     = mustQuery("table_oid")
	sqlTableColumns = mustQuery("table_columns")
	sqlUniqueKeys   = mustQuery("unique_keys")
)
