package pipeline

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pipekit/pipe/errcode"
)

// MaxTaskFires is the most rows [Admin.TaskFires] and [Admin.PausedTasks]
// answer.
const MaxTaskFires = 1_000

var (
	sqlTaskPause  = mustQuery("task_pause")
	sqlTaskPaused = mustQuery("task_paused")
	sqlTaskFires  = mustQuery("task_fires")
)

// TaskFire is a task's last fire: the last occurrence that queued its jobs,
// and the database clock when it did. Arming a task or skipping missed
// occurrences is not a fire; an occurrence whose entries all deduped onto
// live runs is.
type TaskFire struct {
	Task       string    `json:"task"`
	Occurrence time.Time `json:"occurrence"`
	FiredAt    time.Time `json:"firedAt"`
}

// PauseTask pauses the armed task name fleet-wide: from the next occurrence
// on, the fire statement refuses it. An unknown name is X_JOB_UNKNOWN.
func (a *Admin) PauseTask(ctx context.Context, name string) error {
	return a.setTaskPaused(ctx, name, true)
}

// ResumeTask resumes the task name. The leader learns of it at its next lease
// renewal (within 10 s by default), and the task's own catch-up decides what
// it missed while paused. An unknown name is X_JOB_UNKNOWN.
func (a *Admin) ResumeTask(ctx context.Context, name string) error {
	return a.setTaskPaused(ctx, name, false)
}

func (a *Admin) setTaskPaused(ctx context.Context, name string, paused bool) error {
	var got string
	err := a.db.QueryRow(ctx, sqlTaskPause, name, paused).Scan(&got)
	if err == pgx.ErrNoRows {
		return errcode.New(errcode.JobUnknown, "no armed task has that name").
			WithFix("list tasks with `pipe tasks list`; a task is armed when a scheduler declaring it first leads")
	}
	return adminErr("pause task", err)
}

// PausedTasks answers the paused tasks' names, sorted, at most MaxTaskFires.
func (a *Admin) PausedTasks(ctx context.Context) ([]string, error) {
	rows, err := a.db.Query(ctx, sqlTaskPaused, MaxTaskFires)
	if err != nil {
		return nil, adminErr("paused tasks", err)
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	return names, adminErr("paused tasks", err)
}

// TaskFires answers each task's last fire, by name, at most MaxTaskFires
// rows. A task that never fired has none.
func (a *Admin) TaskFires(ctx context.Context) ([]TaskFire, error) {
	rows, err := a.db.Query(ctx, sqlTaskFires, MaxTaskFires)
	if err != nil {
		return nil, adminErr("task fires", err)
	}
	fires, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (TaskFire, error) {
		var f TaskFire
		err := r.Scan(&f.Task, &f.Occurrence, &f.FiredAt)
		f.Occurrence, f.FiredAt = f.Occurrence.UTC(), f.FiredAt.UTC()
		return f, err
	})
	return fires, adminErr("task fires", err)
}
