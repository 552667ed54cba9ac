package views

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
		panic("views: missing query " + name)
	}
	return strings.TrimSpace(string(b))
}

var sqlRelation = mustQuery("relation")
