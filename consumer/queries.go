package consumer

import (
	"embed"
	"strings"
)

// The statements of the stored cursor, one a file.
//
//go:embed queries/*.sql
var queryFiles embed.FS

func mustQuery(name string) string {
	b, err := queryFiles.ReadFile("queries/" + name + ".sql")
	if err != nil {
		panic("consumer: missing query " + name)
	}
	return strings.TrimSpace(string(b))
}

var (
	sqlCursorLoad = mustQuery("cursor_load")
	sqlCursorSave = mustQuery("cursor_save")
)
