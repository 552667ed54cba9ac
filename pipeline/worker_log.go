package pipeline

import (
	"context"
	"log/slog"
	"time"

	"github.com/pipekit/pipe/errcode"
)

// workerLog writes the worker's events under stable names (jobs.*), always
// with the worker id. Attributes never carry input values.
type workerLog struct {
	l  *slog.Logger
	id string
}

func (l *workerLog) emit(level slog.Level, event string, args ...any) {
	l.l.Log(context.Background(), level, event, append([]any{"worker", l.id}, args...)...)
}

func (l *workerLog) info(event string, args ...any)  { l.emit(slog.LevelInfo, event, args...) }
func (l *workerLog) warn(event string, args ...any)  { l.emit(slog.LevelWarn, event, args...) }
func (l *workerLog) error(event string, args ...any) { l.emit(slog.LevelError, event, args...) }
func (l *workerLog) debug(event string, args ...any) { l.emit(slog.LevelDebug, event, args...) }

// settled writes the one info line of a run that settled (completed, dead,
// failed or cancelled): its job, id, state and how long its last attempt
// ran — never its input, result or error values.
func (l *workerLog) settled(row *claimed, state string) {
	if !l.l.Enabled(context.Background(), slog.LevelInfo) {
		return // spare the id's and the duration's strings a line nobody keeps
	}
	l.info("jobs.run.settled", "job", row.name, "id", row.id.String(), "state", state,
		"duration", time.Since(row.began).Round(time.Millisecond).String())
}

// nPlusOneLogger answers a WatchWrites report that logs a run's enqueues in
// a loop.
func (w *Worker) nPlusOneLogger(row *claimed) func(WriteFinding) {
	return func(f WriteFinding) {
		e, _ := errcode.As(f.Err)
		w.log.warn("jobs.write.n_plus_one", "job", row.name, "id", row.id.String(), "enqueued", f.Job,
			"count", f.Count, "code", string(errcode.NPlusOneWrite), "fix", e.Fix)
	}
}
