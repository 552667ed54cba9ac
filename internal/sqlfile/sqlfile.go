// Package sqlfile reads the SQL a package keeps in embedded files, one
// statement a file under queries/, so that statements are read (and
// EXPLAINed) as SQL rather than assembled from strings.
//
//	//go:embed queries/*.sql
//	var queryFiles embed.FS
//
//	var mustQuery = sqlfile.Reader(queryFiles, "rollup")
//	var sqlWindow = mustQuery("window") // queries/window.sql, trimmed
package sqlfile

import (
	"io/fs"
	"strings"
)

// Reader answers a function that reads queries/<name>.sql from files,
// trimmed of surrounding space. A missing file panics naming pkg and the
// statement: the statements are read into package variables when the
// program starts, so the panic is a build mistake found at once.
func Reader(files fs.FS, pkg string) func(name string) string {
	return func(name string) string {
		b, err := fs.ReadFile(files, "queries/"+name+".sql")
		if err != nil {
			panic(pkg + ": missing query " + name)
		}
		return strings.TrimSpace(string(b))
	}
}
