package errcode_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pipekit/pipe/errcode"
)

func TestPostgresClassifiesBySQLState(t *testing.T) {
	for state, want := range map[string]errcode.Code{
		"08006": errcode.PostgresUnavailable, "57P01": errcode.PostgresUnavailable, "57P03": errcode.PostgresUnavailable,
		"53300": errcode.PostgresUnavailable, "40001": errcode.PostgresConflict, "40P01": errcode.PostgresConflict,
		"55P03": errcode.PostgresTimeout, "57014": errcode.PostgresTimeout, "53100": errcode.PostgresExhausted,
		"23505": errcode.PostgresRefused, "22P02": errcode.PostgresRefused, "P0001": errcode.PostgresRefused,
		"42P01": errcode.PostgresRefused, "42501": errcode.PostgresPermission, "XX000": errcode.PostgresFailed, "58030": errcode.PostgresFailed,
	} {
		err := errcode.Postgres(context.Background(), &pgconn.PgError{Code: state, Message: "secret"}, "enqueue")
		if got := errcode.CodeOf(err); got != want {
			t.Errorf("SQLSTATE %s: %s, want %s", state, got, want)
		}
	}
}

func TestPostgresClasses(t *testing.T) {
	for code, want := range map[errcode.Code]errcode.Class{
		errcode.PostgresUnavailable: errcode.Retryable, errcode.PostgresConflict: errcode.Retryable,
		errcode.PostgresTimeout: errcode.Retryable, errcode.PostgresExhausted: errcode.RetryAfter,
		errcode.PostgresRefused: errcode.Terminal, errcode.PostgresFailed: errcode.Retryable,
		errcode.PostgresPermission: errcode.Terminal,
	} {
		if got := errcode.ClassOf(code); got != want {
			t.Errorf("%s is %s, want %s", code, got, want)
		}
	}
	err := errcode.Postgres(context.Background(), &pgconn.PgError{Code: "53100"}, "export")
	if s, ok := errcode.RetryAfterSeconds(err); !ok || s <= 0 {
		t.Fatalf("disk full carries no retry-after: %v", err)
	}
}

// A trigger's RAISE and a constraint's detail quote the row: neither may
// reach the coded error's text, while the objects the server named do.
func TestPostgresNeverQuotesTheServersMessage(t *testing.T) {
	pg := &pgconn.PgError{Code: "P0001", Message: "refusing row alice@example.com", Detail: "Key (email)=(alice@example.com)",
		Hint: "alice", Where: "PL/pgSQL function f() line 1", SchemaName: "public", TableName: "members", ColumnName: "email",
		ConstraintName: "members_email_key"}
	err := errcode.Postgres(context.Background(), fmt.Errorf("insert: %w", pg), "import")
	e, _ := errcode.As(err)
	text := err.Error() + e.Fix + fmt.Sprint(e.Meta)
	if strings.Contains(text, "alice") {
		t.Fatalf("the coded error quotes the row: %s", text)
	}
	for _, want := range []string{"SQLSTATE P0001", "constraint members_email_key", "table public.members", "column email"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not name %q", err.Error(), want)
		}
	}
	var back *pgconn.PgError
	if !errors.As(err, &back) {
		t.Fatal("the driver's error is not reachable")
	}
}

func TestPostgresConnectionFailuresAreUnavailable(t *testing.T) {
	for _, cause := range []error{io.EOF, io.ErrUnexpectedEOF, syscall.ECONNRESET, syscall.ECONNREFUSED, pgconn.ErrConnClosed,
		fmt.Errorf("read: %w", syscall.EPIPE)} {
		if err := errcode.Postgres(context.Background(), cause, "claim"); !errcode.Unavailable(err) {
			t.Errorf("%v: %v, want unavailable", cause, err)
		}
	}
}

func TestPostgresKeepsTheCallersCode(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errcode.New(errcode.Draining, "draining"))
	if got := errcode.CodeOf(errcode.Postgres(ctx, context.Canceled, "enqueue")); got != errcode.Draining {
		t.Fatalf("a drained caller's failure is %s", got)
	}
	plain, stop := context.WithCancel(context.Background())
	stop()
	if got := errcode.CodeOf(errcode.Postgres(plain, context.Canceled, "enqueue")); got != errcode.Aborted {
		t.Fatalf("a cancelled caller's failure is %s", got)
	}
	coded := errcode.New(errcode.JobNotFound, "gone")
	if errcode.Postgres(plain, coded, "show") != error(coded) {
		t.Fatal("a coded error was recoded")
	}
	if errcode.Postgres(plain, nil, "show") != nil {
		t.Fatal("nil is not nil")
	}
}

// Redact codes what carries a server error and leaves anything else as it
// is: an app's own error keeps its text, a coded one its code.
func TestRedactCodesOnlyServerErrors(t *testing.T) {
	pg := &pgconn.PgError{Code: "22P02", Message: `invalid input syntax for type integer: "alice"`}
	err := errcode.Redact(context.Background(), errors.Join(errors.New("page 3"), pg), "export page")
	if errcode.CodeOf(err) != errcode.PostgresRefused || strings.Contains(err.Error(), "alice") {
		t.Fatalf("a server error redacted as %v", err)
	}
	own := errors.New("the app's own failure")
	if got := errcode.Redact(context.Background(), own, "handle"); got != own {
		t.Fatalf("an error without a server error became %v", got)
	}
	coded := errcode.Wrap(pg, errcode.ImportWriteRefused, "import: refused")
	if got := errcode.Redact(context.Background(), coded, "import"); got != error(coded) {
		t.Fatalf("a coded error became %v", got)
	}
	if errcode.Redact(context.Background(), nil, "x") != nil {
		t.Fatal("nil is not nil")
	}
}
