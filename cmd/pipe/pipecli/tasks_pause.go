package pipecli

import (
	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/pipeline"
)

func (a *app) tasksPauseCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "pause TASK",
		Short: "Pause a task fleet-wide from its next occurrence",
		Long: "pause stops the scheduler firing TASK from its next occurrence on. The task must be\n" +
			"armed: a scheduler declaring it has led at least once.",
		Args: exactArgs("TASK"),
		RunE: func(c *cobra.Command, args []string) error {
			return a.withAdmin(c.Context(), func(adm *pipeline.Admin) error {
				if err := adm.PauseTask(c.Context(), args[0]); err != nil {
					return err
				}
				return a.emit(nameAction{Task: args[0], Action: "paused"}, "paused task "+args[0])
			})
		},
	}
}

func (a *app) tasksResumeCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "resume TASK",
		Short: "Resume a paused task; its catch-up decides what it missed",
		Long: "resume lets the scheduler fire TASK again. The leader learns of it at its next lease\n" +
			"renewal (within 10 s by default), and the task's catch-up decides which of the\n" +
			"occurrences missed while paused fire.",
		Args: exactArgs("TASK"),
		RunE: func(c *cobra.Command, args []string) error {
			return a.withAdmin(c.Context(), func(adm *pipeline.Admin) error {
				if err := adm.ResumeTask(c.Context(), args[0]); err != nil {
					return err
				}
				return a.emit(nameAction{Task: args[0], Action: "resumed"}, "resumed task "+args[0])
			})
		},
	}
}
