package consumer

import (
	"embed"

	"github.com/pipekit/pipe/internal/sqlfile"
)

// The statements of the stored cursor, one a file.
//
//go:embed queries/*.sql
var queryFiles embed.FS

var mustQuery = sqlfile.Reader(queryFiles, "consumer")

var (
	sqlCursorLoad = mustQuery("cursor_load")
	sqlCursorSave = mustQuery("cursor_save")
)
