package pipecli

import (
	"github.com/spf13/cobra"
)

func (a *app) queuesCommand() *cobra.Command {
	return group("queues", "Inspect, pause and bulk-steer queues",
		a.queuesListCommand(),
		a.queuesPauseCommand(),
		a.queuesResumeCommand(),
		a.queuesBulkCommand(bulkRemove),
		a.queuesBulkCommand(bulkRequeue),
		a.queuesBulkCommand(bulkPromote),
	)
}
