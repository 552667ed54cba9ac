package exportrows

import (
	"embed"

	"github.com/pipekit/pipe/internal/sqlfile"
)

// The catalog statements live in queries/*.sql, one statement a file.
//
//go:embed queries/*.sql
var queryFiles embed.FS

var mustQuery = sqlfile.Reader(queryFiles, "exportrows")

var (
	sqlColumnTypes = mustQuery("column_types")
	sqlNow         = mustQuery("now")
	sqlSession     = mustQuery("session")
	sqlPageBlocks  = mustQuery("page_blocks")
	sqlTableBlocks = mustQuery("table_blocks")
)
