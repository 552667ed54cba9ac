package backfill

import (
	"embed"

	"github.com/pipekit/pipe/internal/sqlfile"
)

// The ledger's and the health's statements live in queries/*.sql, one
// statement a file; a batch's own statements are generated from the
// declaration's names (see source.go).
//
//go:embed queries/*.sql
var queryFiles embed.FS

var mustQuery = sqlfile.Reader(queryFiles, "backfill")

var (
	sqlEstimate     = mustQuery("estimate")
	sqlTypeName     = mustQuery("type_name")
	sqlLedgerOpen   = mustQuery("ledger_open")
	sqlLedgerLoad   = mustQuery("ledger_load")
	sqlLedgerBatch  = mustQuery("ledger_batch")
	sqlLedgerDone   = mustQuery("ledger_done")
	sqlLedgerReport = mustQuery("ledger_report")
	sqlLedgerList   = mustQuery("ledger_list")
	sqlInFlight     = mustQuery("ledger_in_flight")
	sqlLedgerHold   = mustQuery("ledger_hold")
	sqlLedgerHeld   = mustQuery("ledger_held")
	sqlLedgerCancel = mustQuery("ledger_cancel")
	sqlHealth       = mustQuery("health")
	sqlTimeouts     = mustQuery("timeouts")
)
