package console

import (
	"net/http"
	"time"

	"github.com/pipekit/pipe/pipeline"
)

// taskLine is one task on the tasks page, its next run in its own zone.
type taskLine struct {
	pipeline.TaskRow
	NextLocal string
}

func (c *Console) tasksPage(w http.ResponseWriter, r *http.Request) {
	rows, err := c.admin.Tasks(r.Context(), c.opts.Tasks, c.opts.Now())
	if err != nil {
		c.fail(w, r, statusOf(err), err)
		return
	}
	lines := make([]taskLine, len(rows))
	for i, row := range rows {
		lines[i] = taskLine{TaskRow: row, NextLocal: "-"}
		if row.NextRun == nil {
			continue
		}
		if loc, err := time.LoadLocation(row.Zone); err == nil {
			lines[i].NextLocal = row.NextRun.In(loc).Format("2006-01-02 15:04 MST")
		}
	}
	c.render(w, r, http.StatusOK, "tasks", "Tasks", lines)
}

func (c *Console) workersPage(w http.ResponseWriter, r *http.Request) {
	workers, err := c.admin.Workers(r.Context())
	if err != nil {
		c.fail(w, r, statusOf(err), err)
		return
	}
	c.render(w, r, http.StatusOK, "workers", "Workers", workers)
}
