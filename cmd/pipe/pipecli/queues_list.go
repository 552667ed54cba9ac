package pipecli

import (
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/pipeline"
)

func (a *app) queuesListCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List every queue that holds a job or a pause, with its depth per state",
		Args:  noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return a.withAdmin(c.Context(), func(adm *pipeline.Admin) error {
				qs, err := adm.Queues(c.Context())
				if err != nil {
					return err
				}
				if a.json {
					if qs == nil {
						qs = []pipeline.QueueStats{}
					}
					return printJSON(a.stdout, qs)
				}
				return a.renderQueues(qs)
			})
		},
	}
}

func (a *app) renderQueues(qs []pipeline.QueueStats) error {
	if len(qs) == 0 {
		_, err := fmt.Fprintln(a.stdout, "no queues")
		return err
	}
	t := newTable(a.stdout, "QUEUE", "PAUSED", "READY", "DELAYED", "RUNNING", "SUSPENDED", "FAILED", "DEAD")
	for _, q := range qs {
		t.row(q.Queue, yesNo(q.Paused), count(q.Ready), count(q.Delayed), count(q.Running), count(q.Suspended),
			count(q.Failed), count(q.Dead))
	}
	return t.flush()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func count(n int64) string { return strconv.FormatInt(n, 10) }
