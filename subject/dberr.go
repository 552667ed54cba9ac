package subject

import (
	"errors"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pipekit/pipe/errcode"
)

// statementErr codes a statement's failure without the server's message,
// which can quote a value: errcode.ServerDetail's SQLSTATE and the objects
// the server names. A value that does not fit its type (class 22: the
// person's key, say) is X_JOB_INPUT_INVALID, terminal; anything else
// X_SUBJECT_STATEMENT_FAILED, retried.
func statementErr(err error, what, table string) error {
	var pg *pgconn.PgError
	if err == nil || !errors.As(err, &pg) {
		return err
	}
	detail := errcode.ServerDetail(pg)
	if strings.HasPrefix(pg.Code, "22") {
		return errcode.Wrap(err, errcode.JobInputInvalid, "subject: %s of %s: a value does not fit its column (%s)", what, table, detail).
			WithFix("give the person's key as the root's key columns read it (a number for an integer key, a uuid for a uuid key)")
	}
	return errcode.Wrap(err, errcode.SubjectStatementFailed, "subject: %s of %s failed (%s)", what, table, detail).
		WithFix("the attempt is retried; if it keeps failing, `pipe jobs show` the run and look at the named constraint")
}
