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
		e := q.Estimated
		t.row(q.Queue, yesNo(q.Paused), depth(q.Ready, e.Open), depth(q.Delayed, e.Open), depth(q.Running, e.Running),
			depth(q.Suspended, e.Open), depth(q.Failed, e.Finished), depth(q.Dead, e.Finished))
	}
	return t.flush()
}

// depth writes one of a queue's counts: in full, or as an estimate (~1.2M).
func depth(n int64, estimated bool) string {
	if estimated {
		return pipeline.FormatEstimate(n)
	}
	return count(n)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func count(n int64) string { return strconv.FormatInt(n, 10) }
