package pipecli

import (
	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/pipeline"
)

func (a *app) jobsCancelCommand() *cobra.Command {
	var reason string
	c := &cobra.Command{
		Use:   "cancel ID",
		Short: "Stop a live run (ready, delayed, running or suspended)",
		Long: "cancel settles a live run as cancelled. A running run's worker hears of it at once, by a\n" +
			"notification (at its next heartbeat when its wake is off), and cancels the body with\n" +
			"X_JOB_CANCELLED: its steps and fenced writes are refused from then on.",
		Args: exactArgs("ID"),
		RunE: func(c *cobra.Command, args []string) error {
			return a.withAdmin(c.Context(), func(adm *pipeline.Admin) error {
				if err := adm.Cancel(c.Context(), args[0], reason); err != nil {
					return err
				}
				return a.report(actionResult{ID: args[0], Action: "cancelled"}, "cancelled "+args[0])
			})
		},
	}
	c.Flags().StringVar(&reason, "reason", "", "why, kept in the run's journal")
	return c
}
