package project

import (
	"log/slog"

	"github.com/jackc/pgx/v5"
)

// Option sets how [Load] and [Declare] make a file's declarations.
type Option func(*settings)

type settings struct {
	logger *slog.Logger
	listen *pgx.ConnConfig
}

// WithLogger is the logger the file's outbox relay logs to
// (outbox.publish.failed): the worker's own, so that one process writes one
// log format. Default slog.Default().
func WithLogger(l *slog.Logger) Option {
	return func(s *settings) { s.logger = l }
}

// WithListen is where the file's outbox relay holds its LISTEN wake (see
// outbox.Options.Listen): a direct or session-pooled server when the
// database URL leads through a transaction pooler. Default the relay's
// pool's own settings.
func WithListen(c *pgx.ConnConfig) Option {
	return func(s *settings) { s.listen = c }
}
