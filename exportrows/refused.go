package exportrows

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pipekit/pipe/errcode"
)

// sourceErr codes a failed read of the source. What the source says or
// reads — a Where filter, a view's definition or the query that does not
// parse or names what is not there (SQLSTATE class 42), a value they cast
// or divide by (22), a RAISE (P0), a write where an export only reads
// (25006, nextval() in a filter) — is X_EXPORT_SOURCE_INVALID, terminal:
// read again, it fails again. Any other server failure is coded by
// errcode.Redact, and a coded error is answered as it is. None quotes the
// server's message, which can quote a row's value.
func sourceErr(ctx context.Context, err error, label string) error {
	if _, ok := errcode.As(err); ok || err == nil {
		return err
	}
	var pg *pgconn.PgError
	if !errors.As(err, &pg) || !sourceRefused(pg.Code) {
		return errcode.Redact(ctx, err, "export "+label)
	}
	return errcode.Wrap(err, errcode.ExportSourceInvalid, "export %s: the source does not read (%s)", label, errcode.ServerDetail(pg)).
		WithFix("correct the source — the table and its columns, the Where filter, a view's definition or the query — "+
			"so that it reads: an export only reads, so a filter that writes (nextval) is refused too").
		WithMeta("sqlstate", pg.Code)
}

// sourceRefused reports the SQLSTATEs of a source that cannot be read as it
// stands.
func sourceRefused(state string) bool {
	class := state[:min(2, len(state))]
	return class == "42" || class == "22" || class == "P0" || state == "25006"
}
