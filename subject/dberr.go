package subject

import (
	"context"
	"errors"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pipekit/pipe/errcode"
)

// transient reports a failure a retry can outlive — the database went away,
// a conflict, a timeout, a resource run out — which the job core treats by
// its own code (a lost database hands the run back uncounted).
func transient(err error) bool {
	switch errcode.CodeOf(errcode.Postgres(context.Background(), err, "")) {
	case errcode.PostgresUnavailable, errcode.PostgresConflict, errcode.PostgresTimeout, errcode.PostgresExhausted:
		return true
	}
	return false
}

// statementErr codes a statement's failure without the server's message,
// which can quote a value: errcode.ServerDetail's SQLSTATE and the objects
// the server names. A value that does not fit its type (class 22: the
// person's key, say) is X_JOB_INPUT_INVALID, terminal; anything else
// X_SUBJECT_STATEMENT_FAILED, retried. A transient failure keeps the code
// errcode.Postgres gives it.
func statementErr(err error, what, table string) error {
	var pg *pgconn.PgError
	if err == nil || !errors.As(err, &pg) {
		return err
	}
	if transient(err) {
		return errcode.Postgres(context.Background(), err, "subject: "+what+" of "+table)
	}
	detail := errcode.ServerDetail(pg)
	if strings.HasPrefix(pg.Code, "22") {
		return errcode.Wrap(err, errcode.JobInputInvalid, "subject: %s of %s: a value does not fit its column (%s)", what, table, detail).
			WithFix("give the person's key as the root's key columns read it (a number for an integer key, a uuid for a uuid key)")
	}
	return errcode.Wrap(err, errcode.SubjectStatementFailed, "subject: %s of %s failed (%s)", what, table, detail).
		WithFix("the attempt is retried; if it keeps failing, `pipe jobs show` the run and look at the named constraint")
}
