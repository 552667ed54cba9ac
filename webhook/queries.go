package webhook

import (
	"embed"

	"github.com/pipekit/pipe/internal/sqlfile"
)

// The statements of the stock ledger and endpoint store, one a file.
//
//go:embed queries/*.sql
var queryFiles embed.FS

var mustQuery = sqlfile.Reader(queryFiles, "webhook")

var (
	sqlLedgerRecord = sqlfile.NewNamed(mustQuery("ledger_record"))
	sqlLedgerList   = mustQuery("ledger_list")
)

var (
	sqlEndpointAdd       = mustQuery("endpoint_add")
	sqlEndpointGet       = mustQuery("endpoint_get")
	sqlEndpointList      = mustQuery("endpoint_list")
	sqlEndpointEnable    = mustQuery("endpoint_enable")
	sqlEndpointRotate    = mustQuery("endpoint_rotate")
	sqlEndpointFailed    = mustQuery("endpoint_failed")
	sqlEndpointDelivered = mustQuery("endpoint_delivered")
)
