package rollup

import (
	"embed"
	"strings"
)

// The catalog statements live in queries/*.sql, one statement a file; the
// rollup's own statement is generated (see statement.go, and the golden
// files under testdata).
//
//go:embed queries/*.sql
var queryFiles embed.FS

func mustQuery(name string) string {
	b, err := queryFiles.ReadFile("queries/" + name + ".sql")
	if err != nil {
		panic("rollup: missing query " + name)
	}
	return strings.TrimSpace(string(b))
}

var (
	sqlRelation   = mustQuery("relation")
	sqlColumns    = mustQuery("columns")
	sqlUniqueKeys = mustQuery("unique_keys")
	sqlZoneKnown  = mustQuery("zone_known")
	sqlWindow     = mustQuery("window")
	sqlLock       = mustQuery("lock")
)
