package pipecli

import (
	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/pipeline"
)

func (a *app) jobsRemoveCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "remove ID",
		Short: "Delete a run and its journal (not while it runs)",
		Args:  exactArgs("ID"),
		RunE: func(c *cobra.Command, args []string) error {
			return a.withAdmin(c.Context(), func(adm *pipeline.Admin) error {
				if err := adm.Remove(c.Context(), args[0]); err != nil {
					return err
				}
				return a.report(actionResult{ID: args[0], Action: "removed"}, "removed "+args[0]+" and its journal")
			})
		},
	}
}
