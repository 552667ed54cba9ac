package pipecli

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/pipeline"
)

func (a *app) tasksListCommand() *cobra.Command {
	var config string
	c := &cobra.Command{
		Use:   "list",
		Short: "List tasks: last fire, paused, and the next run of the tasks this pipe declares",
		Long: "list shows every task that has fired or is paused, and every task this pipe was built\n" +
			"with (pipecli.Options.Tasks, and those of --config pipe.json). Only a declared task has a\n" +
			"cron, a zone and a next run. Times are UTC.",
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if _, err := a.useProject(config); err != nil {
				return err
			}
			return a.withAdmin(c.Context(), func(adm *pipeline.Admin) error {
				rows, err := adm.Tasks(c.Context(), a.opts.Tasks, time.Now())
				if err != nil {
					return err
				}
				if a.json {
					return printJSON(a.stdout, rows)
				}
				return a.renderTasks(rows)
			})
		},
	}
	configFlag(c, &config)
	return c
}

func (a *app) renderTasks(rows []pipeline.TaskRow) error {
	if len(rows) == 0 {
		_, err := fmt.Fprintln(a.stdout, "no tasks")
		return err
	}
	t := newTable(a.stdout, "TASK", "CRON", "ZONE", "PAUSED", "LAST OCCURRENCE", "FIRED AT", "NEXT RUN")
	for _, r := range rows {
		t.row(r.Task, orDash(r.Cron), orDash(r.Zone), yesNo(r.Paused), stampPtr(r.LastOccurrence), stampPtr(r.FiredAt),
			stampPtr(r.NextRun))
	}
	return t.flush()
}
