package views

import (
	"embed"

	"github.com/pipekit/pipe/internal/sqlfile"
)

// The catalog statements live in queries/*.sql, one statement a file.
//
//go:embed queries/*.sql
var queryFiles embed.FS

var mustQuery = sqlfile.Reader(queryFiles, "views")

var sqlRelation = mustQuery("relation")
