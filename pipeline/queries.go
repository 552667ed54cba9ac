package pipeline

import (
	"embed"

	"github.com/pipekit/pipe/internal/sqlfile"
)

// The statements the core runs live in queries/*.sql, one statement a file,
// so they can be read (and EXPLAINed) as SQL. A statement with more than six
// parameters names them (@ids), rewritten to positional ones once, at start
// (sqlfile.NewNamed).
//
//go:embed queries/*.sql
var queryFiles embed.FS

var mustQuery = sqlfile.Reader(queryFiles, "pipeline")

var (
	sqlEnqueue      = sqlfile.NewNamed(mustQuery("enqueue"))
	sqlEnqueueFresh = sqlfile.NewNamed(mustQuery("enqueue_fresh")) // enqueue without ON CONFLICT: see enqueue_fresh.go
	sqlLiveByKeys   = mustQuery("live_by_keys")
	sqlNotify       = mustQuery("notify")
)

var (
	sqlClaim        = mustQuery("claim")
	sqlComplete     = mustQuery("complete")
	sqlFail         = mustQuery("fail")
	sqlDefer        = mustQuery("defer")
	sqlRenew        = mustQuery("renew")
	sqlAppendSteps  = mustQuery("append_steps")
	sqlFenceStep    = mustQuery("fence_step")
	sqlJournalSteps = mustQuery("journal_steps")
	sqlOpenJournal  = mustQuery("journal_steps_open")
)

var sqlShow = mustQuery("show")

var (
	sqlRequeue = mustQuery("requeue")
	sqlCancel  = mustQuery("cancel")
	sqlPromote = mustQuery("promote")
)

var (
	sqlSuspend      = sqlfile.NewNamed(mustQuery("suspend"))
	sqlPublishEvent = mustQuery("publish_event")
	sqlFindEvent    = mustQuery("find_event")
)

var sqlSpendBudget = mustQuery("spend_budget")

var sqlProgress = mustQuery("progress")

var (
	sqlQueueStats  = mustQuery("queue_stats")
	sqlRemoveMany  = mustQuery("remove_many")
	sqlRequeueMany = mustQuery("requeue_many")
	sqlPromoteMany = mustQuery("promote_many")
)

var sqlWorkerAnnounce = mustQuery("worker_announce")

var sqlMaintain = mustQuery("maintain")
