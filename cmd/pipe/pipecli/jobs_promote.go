package pipecli

import (
	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/pipeline"
)

func (a *app) jobsPromoteCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "promote ID",
		Short: "Run a delayed run, or one backing off before a retry, now",
		Args:  exactArgs("ID"),
		RunE: func(c *cobra.Command, args []string) error {
			return a.withAdmin(c.Context(), func(adm *pipeline.Admin) error {
				if err := adm.Promote(c.Context(), args[0]); err != nil {
					return err
				}
				return a.report(actionResult{ID: args[0], Action: "promoted"}, "promoted "+args[0]+": it runs at once")
			})
		},
	}
}
