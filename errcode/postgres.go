package errcode

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
)

// The codes of a statement PostgreSQL did not carry out, by what a retry can
// do about it. [Postgres] chooses among them.
const (
	// PostgresConflict: a serialization failure or a deadlock (SQLSTATE
	// 40001, 40P01). Retryable: the same statement usually passes next time.
	PostgresConflict Code = "X_POSTGRES_CONFLICT"
	// PostgresTimeout: a lock timeout, a statement timeout or an idle
	// transaction cut off (55P03, 57014, 25P03). Retryable.
	PostgresTimeout Code = "X_POSTGRES_TIMEOUT"
	// PostgresExhausted: the server ran out of a resource — disk, memory, a
	// configured limit (class 53 but 53300). Retry-after.
	PostgresExhausted Code = "X_POSTGRES_EXHAUSTED"
	// PostgresRefused: the server refused the statement for what it says or
	// what it touches — a value that does not fit (class 22), a constraint
	// (23), an unknown object (42 but 42501), a trigger's RAISE (P0), a
	// feature it lacks (0A). Terminal: the same statement is refused again.
	PostgresRefused Code = "X_POSTGRES_REFUSED"
	// PostgresFailed: any other failure of the server or the driver.
	// Retryable.
	PostgresFailed Code = "X_POSTGRES_FAILED"
)

// exhaustedRetryAfter is how long a run waits after the server ran out of a
// resource, in seconds.
const exhaustedRetryAfter = 30

func init() {
	Register(PostgresRefused, Terminal)
	Register(PostgresExhausted, RetryAfter)
}

// Postgres codes err, a failure of a statement or of the connection it ran
// on, by what the job core should do about it; what names the statement in
// the user's words ("enqueue", "journal write"). The message names the
// SQLSTATE and the constraint, column and table the server named — never the
// server's message, detail or hint, which can quote a row's values. The
// driver's error stays reachable with errors.As.
//
//   - a lost or refused connection, a server shutting down or starting up
//     (class 08, 57P01-57P03, 53300, a reset or closed connection):
//     [PostgresUnavailable], retryable — the job core hands the run back
//     with the attempt uncounted;
//   - [PostgresConflict], [PostgresTimeout], [PostgresExhausted],
//     [PostgresPermission], [PostgresRefused] and [PostgresFailed] as their
//     docs say.
//
// An err that already carries a code is answered unchanged, and nil is nil.
// When ctx has ended, the failure is the caller's: the answer carries the
// code of ctx's cause (X_DRAINING, X_JOB_TIMEOUT, ...), else X_ABORTED. Pass
// context.Background() when the deadline was pipe's own, so that it reads as
// a server that did not answer.
func Postgres(ctx context.Context, err error, what string) error {
	if err == nil {
		return nil
	}
	if _, ok := As(err); ok {
		return err
	}
	if ctx.Err() != nil && !isServerError(err) {
		return ended(ctx, err, what)
	}
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return serverError(err, pg, what)
	}
	if isConnectionLost(err) {
		return Wrap(err, PostgresUnavailable, "%s: the connection to PostgreSQL failed", what).
			WithFix("none: the run is retried once PostgreSQL answers; if it goes on, check that the server is up and reachable")
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return Wrap(err, PostgresUnavailable, "%s: PostgreSQL did not answer in time", what).
			WithFix("none: the run is retried once PostgreSQL answers; if it goes on, check that the server is up and reachable")
	}
	return Wrap(err, PostgresFailed, "%s: the database driver failed", what).
		WithFix("the run is retried; if it goes on, report it with the run's id")
}

// Redact answers err with the PostgreSQL server error it carries coded by
// [Postgres], so that no text built from it quotes the server's message;
// an error that is coded already, or carries no server error, is answered
// unchanged. A step passes whatever failed through it before the job core
// stores the failure: what names the step in the user's words.
func Redact(ctx context.Context, err error, what string) error {
	if err == nil || !isServerError(err) {
		return err
	}
	return Postgres(ctx, err, what)
}

// ended codes a failure that came after the caller's context ended.
func ended(ctx context.Context, err error, what string) error {
	code := CodeOf(context.Cause(ctx))
	if code == "" {
		code = Aborted
	}
	return Wrap(err, code, "%s: stopped: the caller's context ended (%s)", what, code).
		WithFix("none: the caller stopped waiting; nothing after that point was written")
}

func isServerError(err error) bool {
	var pg *pgconn.PgError
	return errors.As(err, &pg)
}

// serverError codes an error the server reported.
func serverError(err error, pg *pgconn.PgError, what string) *Error {
	code, fix := sqlstateCode(pg.Code)
	e := Wrap(err, code, "%s: %s", what, ServerDetail(pg)).WithFix(fix).WithMeta("sqlstate", pg.Code)
	for k, v := range map[string]string{"constraint": pg.ConstraintName, "table": pg.TableName, "column": pg.ColumnName} {
		if v != "" {
			e = e.WithMeta(k, v)
		}
	}
	if code == PostgresExhausted {
		e = e.WithRetryAfter(exhaustedRetryAfter)
	}
	return e
}

// ServerDetail names a server error by what is safe to print and store: its
// SQLSTATE and the schema objects the server named, never its message.
func ServerDetail(pg *pgconn.PgError) string {
	var b strings.Builder
	b.WriteString("SQLSTATE " + pg.Code)
	for _, part := range [][2]string{{"constraint", pg.ConstraintName}, {"table", qualified(pg.SchemaName, pg.TableName)}, {"column", pg.ColumnName}, {"type", pg.DataTypeName}} {
		if part[1] != "" {
			b.WriteString(", " + part[0] + " " + part[1])
		}
	}
	return b.String()
}

func qualified(schema, name string) string {
	if name == "" || schema == "" {
		return name
	}
	return schema + "." + name
}

// sqlstateCode answers the code of a SQLSTATE and its fix.
func sqlstateCode(state string) (Code, string) {
	class := state[:min(2, len(state))]
	switch {
	case class == "08" || state == "57P01" || state == "57P02" || state == "57P03" || state == "53300":
		return PostgresUnavailable, "none: the run is retried once PostgreSQL answers; if it goes on, check that the server is up and accepts connections"
	case state == "40001" || state == "40P01":
		return PostgresConflict, "none: the transaction met another and is retried; if it goes on, make concurrent writers take their locks in one order"
	case state == "55P03" || state == "57014" || state == "25P03":
		return PostgresTimeout, "the run is retried; if it goes on, look for the transaction holding the lock, or raise the timeout"
	case class == "53":
		return PostgresExhausted, "free the server's disk or memory, or raise the named limit; the run is retried after a pause"
	case state == "42501":
		return PostgresPermission, postgresPermissionFix
	case class == "22" || class == "23" || class == "42" || class == "P0" || class == "0A" || class == "2B" || class == "2F" || class == "39":
		return PostgresRefused, "the server refuses the statement as it stands and would refuse it again: fix the data, the constraint or the SQL the SQLSTATE names"
	}
	return PostgresFailed, "the run is retried; if it goes on, look up the SQLSTATE in the server's log"
}

// isConnectionLost reports a failure of the connection rather than of a
// statement: it could not be made, it was reset or closed, or the server went
// away mid-answer.
func isConnectionLost(err error) bool {
	var connect *pgconn.ConnectError
	var netErr net.Error
	switch {
	case errors.As(err, &connect), pgconn.SafeToRetry(err), errors.Is(err, pgconn.ErrConnClosed):
		return true
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, net.ErrClosed):
		return true
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.EPIPE), errors.Is(err, syscall.ECONNABORTED):
		return true
	case errors.As(err, &netErr):
		return true
	}
	return strings.Contains(err.Error(), "conn closed") || strings.Contains(err.Error(), "closed pool")
}

// Unavailable reports whether err says PostgreSQL could not be reached or
// went away: the failure of a connection, not of a statement.
func Unavailable(err error) bool {
	return CodeOf(err) == PostgresUnavailable
}

// IsPostgres reports whether err's chain holds an error PostgreSQL reported,
// a connection to it that could not be made, or one pgx had closed: what
// [Postgres] codes by its SQLSTATE or as unavailable. A bare network error
// or io.EOF is not enough: it may come from anything a program talks to.
func IsPostgres(err error) bool {
	var connect *pgconn.ConnectError
	return err != nil && (isServerError(err) || errors.As(err, &connect) || errors.Is(err, pgconn.ErrConnClosed))
}
