package outbox

import (
	"embed"

	"github.com/pipekit/pipe/internal/sqlfile"
)

//go:embed queries/*.sql
var queryFiles embed.FS

var mustQuery = sqlfile.Reader(queryFiles, "outbox")

var (
	sqlStage     = mustQuery("stage")
	sqlStageMany = mustQuery("stage_many")
)
