package project

import "log/slog"

// Option sets how [Load] and [Declare] make a file's declarations.
type Option func(*settings)

type settings struct {
	logger *slog.Logger
}

// WithLogger is the logger the file's outbox relay logs to
// (outbox.publish.failed): the worker's own, so that one process writes one
// log format. Default slog.Default().
func WithLogger(l *slog.Logger) Option {
	return func(s *settings) { s.logger = l }
}
