package pipeline

import (
	"context"
	"slices"
	"strings"
	"time"
)

// TaskRow is one task as the operator sees it: its last fire, whether it is
// paused and, for a task declared here, its cron, zone and next run.
type TaskRow struct {
	Task string `json:"task"`
	// Declared: the caller declared the task, so its cron, zone and next
	// run are known.
	Declared       bool       `json:"declared"`
	Cron           string     `json:"cron,omitempty"`
	Zone           string     `json:"zone,omitempty"`
	Paused         bool       `json:"paused"`
	LastOccurrence *time.Time `json:"lastOccurrence"`
	FiredAt        *time.Time `json:"firedAt"`
	// NextRun is the declared task's next occurrence after now, in UTC; nil
	// when the task is paused or not declared.
	NextRun *time.Time `json:"nextRun"`
}

// Tasks answers one row per task, by name: every task that fired or is
// paused, and every task in declared (the ones the caller runs), with the
// next run of the declared ones after now.
func (a *Admin) Tasks(ctx context.Context, declared []*Task, now time.Time) ([]TaskRow, error) {
	fires, err := a.TaskFires(ctx)
	if err != nil {
		return nil, err
	}
	paused, err := a.PausedTasks(ctx)
	if err != nil {
		return nil, err
	}
	return taskRows(declared, fires, paused, now), nil
}

// taskRows merges the declared tasks, the fires and the paused names.
func taskRows(declared []*Task, fires []TaskFire, paused []string, now time.Time) []TaskRow {
	byName := map[string]*TaskRow{}
	row := func(name string) *TaskRow {
		if r, ok := byName[name]; ok {
			return r
		}
		r := &TaskRow{Task: name}
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
			if next := NextTaskRun(t, now); !next.IsZero() {
				next = next.UTC()
				r.NextRun = &next
			}
		}
	}
	rows := make([]TaskRow, 0, len(byName))
	for _, r := range byName {
		rows = append(rows, *r)
	}
	slices.SortFunc(rows, func(x, y TaskRow) int { return strings.Compare(x.Task, y.Task) })
	return rows
}
