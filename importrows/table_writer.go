package importrows

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/internal/pgcatalog"
)

// stageTable is the name of a page's staging table: temporary, dropped at
// the page's commit.
const stageTable = `"pipe_import_stage"`

// tableWriter writes one page's rows into the target inside the page's
// transaction: COPY into a staging table, then one upsert on the key (or COPY
// straight into the table when there is no key).
type tableWriter struct {
	table   string   // quoted, qualified
	columns []string // the COPY column order
	key     []string
}

// write streams produce's COPY-CSV output into the table and answers the
// rows the statement wrote. produce runs in its own goroutine while
// PostgreSQL reads, so parsing and loading overlap. direct COPYs straight
// into the table even with a key: the caller tries it in a savepoint and
// falls back to the upsert when a key conflicts. After the COPY, more may
// answer a second producer (nil: none), whose rows are COPYed after.
func (w *tableWriter) write(ctx context.Context, tx pgx.Tx, direct bool, produce func(io.Writer) error, more moreRows) (int64, error) {
	into := w.table
	if len(w.key) > 0 && !direct {
		into = stageTable
		stmt := fmt.Sprintf("create temp table %s on commit drop as select %s from %s with no data", stageTable, w.list(), w.table)
		if _, err := tx.Exec(ctx, stmt); err != nil {
			return 0, err
		}
	}
	n, err := w.copy(ctx, tx, into, produce)
	if err == nil && more != nil {
		var m int64
		m, err = w.copyMore(ctx, tx, into, more)
		n += m
	}
	if err != nil || len(w.key) == 0 || direct {
		return n, err
	}
	return w.upsert(ctx, tx)
}

func (w *tableWriter) copy(ctx context.Context, tx pgx.Tx, into string, produce func(io.Writer) error) (int64, error) {
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := produce(pw)
		pw.CloseWithError(err)
		done <- err
	}()
	stmt := fmt.Sprintf("copy %s (%s) from stdin (format csv)", into, w.list())
	tag, err := tx.Conn().PgConn().CopyFrom(ctx, pr, stmt)
	pr.CloseWithError(errCopyEnded) // unblock a producer the server stopped reading
	if perr := <-done; perr != nil && !errors.Is(perr, errCopyEnded) {
		return 0, perr
	}
	if err != nil {
		return 0, refusedWrite(ctx, err)
	}
	return tag.RowsAffected(), nil
}

var errCopyEnded = errors.New("copy ended")

// moreRows answers the producer of rows to COPY after the first COPY, or
// nil when there are none; it may query tx.
type moreRows func(ctx context.Context, tx pgx.Tx) (func(io.Writer) error, error)

func (w *tableWriter) copyMore(ctx context.Context, tx pgx.Tx, into string, more moreRows) (int64, error) {
	produce, err := more(ctx, tx)
	if err != nil || produce == nil {
		return 0, err
	}
	return w.copy(ctx, tx, into, produce)
}

// upsert moves the staging rows into the table. Two rows of one page with one
// key cannot both be upserted by one statement; then the last of them wins,
// as it would have across pages.
func (w *tableWriter) upsert(ctx context.Context, tx pgx.Tx) (int64, error) {
	sp, err := tx.Begin(ctx)
	if err != nil {
		return 0, err
	}
	tag, err := sp.Exec(ctx, w.upsertSQL(false))
	if err == nil {
		return tag.RowsAffected(), sp.Commit(ctx)
	}
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "21000" {
		return 0, refusedWrite(ctx, err)
	}
	if err := sp.Rollback(ctx); err != nil {
		return 0, err
	}
	tag, err = tx.Exec(ctx, w.upsertSQL(true))
	if err != nil {
		return 0, refusedWrite(ctx, err)
	}
	return tag.RowsAffected(), nil
}

// upsertSQL is the statement; lastWins keeps only the last staged row of
// each key (the staging heap is in file order).
func (w *tableWriter) upsertSQL(lastWins bool) string {
	from := fmt.Sprintf("select %s from %s", w.list(), stageTable)
	if lastWins {
		key := w.quoted(w.key)
		from = fmt.Sprintf("select distinct on (%s) %s from %s order by %s, ctid desc",
			key, w.list(), stageTable, key)
	}
	return fmt.Sprintf("insert into %s (%s) %s on conflict (%s) %s",
		w.table, w.list(), from, w.quoted(w.key), w.onConflict())
}

func (w *tableWriter) onConflict() string {
	var set []string
	for _, c := range w.columns {
		if !slices.Contains(w.key, c) {
			q := pgcatalog.Quote(c)
			set = append(set, q+" = excluded."+q)
		}
	}
	if len(set) == 0 {
		return "do nothing"
	}
	return "do update set " + strings.Join(set, ", ")
}

// list answers the COPY columns, quoted, comma-separated.
func (w *tableWriter) list() string { return w.quoted(w.columns) }

func (w *tableWriter) quoted(cols []string) string { return pgcatalog.QuoteList(cols) }

// refusedWrite codes a write the database refused. A row the table
// refuses — a value that does not fit (SQLSTATE class 22), a constraint
// (23), a trigger's RAISE (P0) — is X_IMPORT_WRITE_REFUSED; any other
// failure is coded by errcode.Postgres. Both name the SQLSTATE and the
// objects the server named, never its message or detail, which quote the
// row.
func refusedWrite(ctx context.Context, err error) error {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || !rowRefused(pe.Code) {
		return errcode.Postgres(ctx, err, "import: write the page")
	}
	e := errcode.Wrap(err, errcode.ImportWriteRefused, "import: the table refused a row of the page (%s)", errcode.ServerDetail(pe)).
		WithFix("fix the rows the constraint or trigger refuses, or relax it; the page was not written").
		WithMeta("sqlstate", pe.Code)
	if pe.ConstraintName != "" {
		e = e.WithMeta("constraint", pe.ConstraintName)
	}
	return e
}

// rowRefused reports the SQLSTATEs of a row the table refuses.
func rowRefused(state string) bool {
	class := state[:min(2, len(state))]
	return class == "22" || class == "23" || class == "P0"
}

// checkDeferred checks the constraints the table defers to the commit —
// a deferrable unique or foreign key, a constraint trigger — before the
// page's step commits, so that a row they refuse is coded here as any
// other refused row rather than failing the step's commit.
func checkDeferred(ctx context.Context, tx pgx.Tx) error {
	if _, err := tx.Exec(ctx, "set constraints all immediate"); err != nil {
		return refusedWrite(ctx, err)
	}
	return nil
}

// isKeyConflict reports a write refused by a unique index: the direct COPY
// met a row that is already there (or twice in the page).
func isKeyConflict(err error) bool {
	e, ok := errcode.As(err)
	return ok && e.Code == errcode.ImportWriteRefused && e.Meta["sqlstate"] == "23505"
}
