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

	sqlFaults      = mustQuery("faults")
	sqlFaulty      = mustQuery("faulty")
	sqlReleased    = mustQuery("released")
	sqlMarkBatch   = mustQuery("mark_batch")
	sqlRepublished = mustQuery("mark_republished")
	sqlMarkFault   = mustQuery("mark_fault")
	sqlMarkDead    = mustQuery("mark_dead")
	sqlRelease     = mustQuery("release")
	sqlLock        = mustQuery("lock")

	sqlStatus       = mustQuery("status")
	sqlPrune        = mustQuery("prune")
	sqlPruneBatches = mustQuery("prune_batches")
)
