package pipecli

import (
	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/pipeline"
)

func (a *app) queuesPauseCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "pause QUEUE",
		Short: "Stop every worker claiming from a queue (enqueues still land)",
		Long: "pause stops every worker in the fleet claiming from QUEUE from its next claim; runs\n" +
			"already running finish. Enqueues still land. A queue not seen yet can be paused ahead.",
		Args: exactArgs("QUEUE"),
		RunE: func(c *cobra.Command, args []string) error {
			return a.withAdmin(c.Context(), func(adm *pipeline.Admin) error {
				if err := adm.PauseQueue(c.Context(), args[0]); err != nil {
					return err
				}
				return a.emit(nameAction{Queue: args[0], Action: "paused"}, "paused queue "+args[0])
			})
		},
	}
}

func (a *app) queuesResumeCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "resume QUEUE",
		Short: "Let workers claim from a paused queue again",
		Args:  exactArgs("QUEUE"),
		RunE: func(c *cobra.Command, args []string) error {
			return a.withAdmin(c.Context(), func(adm *pipeline.Admin) error {
				if err := adm.ResumeQueue(c.Context(), args[0]); err != nil {
					return err
				}
				return a.emit(nameAction{Queue: args[0], Action: "resumed"}, "resumed queue "+args[0])
			})
		},
	}
}
