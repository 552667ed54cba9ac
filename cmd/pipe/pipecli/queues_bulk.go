package pipecli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/pipeline"
)

// bulkOp is one of the bulk queue commands.
type bulkOp struct {
	use, short, done string
	states           string // the states the operation takes, for --state's help
	call             func(*pipeline.Admin, context.Context, pipeline.BulkFilter) (pipeline.BulkResult, error)
}

var (
	bulkRemove = bulkOp{use: "remove", short: "Delete up to 1,000 matching runs and their journals",
		done: "removed", states: "any but running", call: (*pipeline.Admin).RemoveMany}
	bulkRequeue = bulkOp{use: "requeue", short: "Put up to 1,000 matching finished runs back to ready",
		done: "requeued", states: "done, failed, dead or cancelled", call: (*pipeline.Admin).RequeueMany}
	bulkPromote = bulkOp{use: "promote", short: "Run up to 1,000 matching waiting runs now",
		done: "promoted", states: "delayed or ready", call: (*pipeline.Admin).PromoteMany}
)

func (a *app) queuesBulkCommand(op bulkOp) *cobra.Command {
	var f pipeline.BulkFilter
	c := &cobra.Command{
		Use:   op.use + " --state STATE",
		Short: op.short,
		Long: fmt.Sprintf("%s acts on at most %d runs a call: those in the state --state (%s)\n"+
			"that match the other filters. It prints how many it %s and how many more match; run it\n"+
			"again until none remain.", op.use, pipeline.MaxBulkRows, op.states, op.done),
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return a.withAdmin(c.Context(), func(adm *pipeline.Admin) error {
				res, err := op.call(adm, c.Context(), f)
				if err != nil {
					return err
				}
				line := fmt.Sprintf("%s %d %s run(s); %d more match", op.done, res.Affected, f.State, res.Remaining)
				if res.Remaining > 0 {
					line += ": run the command again"
				}
				return a.emit(res, line)
			})
		},
	}
	fl := c.Flags()
	fl.StringVar((*string)(&f.State), "state", "", "the runs' state: "+op.states+" (required)")
	fl.StringVar(&f.Queue, "queue", "", "only runs in this queue")
	fl.StringVar(&f.Name, "name", "", "only runs of this job")
	fl.StringVar(&f.Tenant, "tenant", "", "only runs of this tenant")
	_ = c.MarkFlagRequired("state")
	return c
}
