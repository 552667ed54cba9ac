package rollup

import (
	"embed"

	"github.com/pipekit/pipe/internal/sqlfile"
)

// The catalog statements live in queries/*.sql, one statement a file; the
// rollup's own statement is generated (see statement.go, and the golden
// files under testdata).
//
//go:embed queries/*.sql
var queryFiles embed.FS

var mustQuery = sqlfile.Reader(queryFiles, "rollup")

var (
	sqlZoneKnown = mustQuery("zone_known")
	sqlWindow    = mustQuery("window")
	sqlLock      = mustQuery("lock")
)
