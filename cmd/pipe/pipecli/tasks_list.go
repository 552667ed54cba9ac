package pipecli

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/pipeline"
)

// taskRow is one task as `pipe tasks list` prints it.
type taskRow struct {
	Task string `json:"task"`
	// Declared: this pipe was built with the task (Options.Tasks), so its
	// cron, zone and next run are known.
	Declared       bool       `json:"declared"`
	Cron           string     `json:"cron,omitempty"`
	Zone           string     `json:"zone,omitempty"`
	Paused         bool       `json:"paused"`
	LastOccurrence *time.Time `json:"lastOccurrence"`
	FiredAt        *time.Time `json:"firedAt"`
	// NextRun is the declared task's next occurrence after now; null when
	// the task is paused or not declared here.
	NextRun *time.Time `json:"nextRun"`
}

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
				fires, err := adm.TaskFires(c.Context())
				if err != nil {
					return err
				}
				paused, err := adm.PausedTasks(c.Context())
				if err != nil {
					return err
				}
				rows := taskRows(a.opts.Tasks, fires, paused, time.Now())
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

// taskRows merges the declared tasks, the fires and the paused names into
// one row per task, by name.
func taskRows(declared []*pipeline.Task, fires []pipeline.TaskFire, paused []string, now time.Time) []taskRow {
	byName := map[string]*taskRow{}
	row := func(name string) *taskRow {
		if r, ok := byName[name]; ok {
			return r
		}
		r := &taskRow{Task: name}
		byName[name] = r
		return r
	}
	for _, t := range declared {
		r := row(t.Name())
		r.Declared, r.Cron, r.Zone = true, t.Cron(), t.Zone().String()
	}
	for _, f := range fires {
		r := row(f.Task)
		r.LastOccurrence, r.FiredAt = &f.Occurrence, &f.FiredAt
	}
	for _, name := range paused {
		row(name).Paused = true
	}
	for _, t := range declared {
		if r := byName[t.Name()]; !r.Paused {
			if next := pipeline.NextTaskRun(t, now); !next.IsZero() {
				next = next.UTC()
				r.NextRun = &next
			}
		}
	}
	rows := make([]taskRow, 0, len(byName))
	for _, r := range byName {
		rows = append(rows, *r)
	}
	slices.SortFunc(rows, func(x, y taskRow) int { return strings.Compare(x.Task, y.Task) })
	return rows
}

func (a *app) renderTasks(rows []taskRow) error {
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
