package pipecli

import (
	"github.com/spf13/cobra"
)

func (a *app) tasksCommand() *cobra.Command {
	return group("tasks", "Inspect, run, pause and resume scheduled tasks",
		a.tasksListCommand(),
		a.tasksRunCommand(),
		a.tasksPauseCommand(),
		a.tasksResumeCommand(),
	)
}
