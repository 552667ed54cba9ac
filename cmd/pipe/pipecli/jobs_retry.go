package pipecli

import (
	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/pipeline"
)

func (a *app) jobsRetryCommand() *cobra.Command {
	var fromStep string
	c := &cobra.Command{
		Use:   "retry ID",
		Short: "Requeue a finished run (done, failed, dead or cancelled) with a fresh attempt budget",
		Long: "retry puts a finished run back to ready. Completed steps replay from the journal and the\n" +
			"run resumes at the step that failed; --from-step rewinds to a completed step so that it,\n" +
			"and every step completed after it, runs again. A live run must be cancelled first.",
		Args: exactArgs("ID"),
		RunE: func(c *cobra.Command, args []string) error {
			return a.withAdmin(c.Context(), func(adm *pipeline.Admin) error {
				if err := adm.Requeue(c.Context(), args[0], pipeline.RequeueOptions{FromStep: fromStep}); err != nil {
					return err
				}
				text := "requeued " + args[0]
				if fromStep != "" {
					text += " from step " + fromStep
				}
				return a.report(actionResult{ID: args[0], Action: "requeued", Step: fromStep}, text)
			})
		},
	}
	c.Flags().StringVar(&fromStep, "from-step", "", "rewind to this completed step: it and every later step run again")
	return c
}
