package pipeline

import (
	"context"
	"log/slog"
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
