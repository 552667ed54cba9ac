package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/rogpeppe/go-internal/testscript"
)

// cmdSQL is the scripts' psql:
//
//	sql [-url URL] [-f FILE] [STATEMENTS...]
//
// runs the statements (the arguments joined by spaces, or FILE's text) on
// URL, default $DATABASE_URL, in one simple query, and prints every row
// they answer as psql -At does: one line a row, its values joined by |,
// NULL as nothing. With ! it expects the server to refuse them, and prints
// the error on stderr.
func cmdSQL(ts *testscript.TestScript, neg bool, args []string) {
	url, stmts := sqlArgs(ts, args)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err := runSQL(ctx, url, stmts, ts.Stdout())
	switch {
	case err != nil && neg:
		fmt.Fprintln(ts.Stderr(), err)
	case err != nil:
		ts.Fatalf("sql: %v", err)
	case neg:
		ts.Fatalf("sql: the statements ran; want them refused")
	}
}

// sqlArgs reads cmdSQL's arguments: the URL and the statements.
func sqlArgs(ts *testscript.TestScript, args []string) (url, stmts string) {
	url = ts.Getenv("DATABASE_URL")
	for len(args) >= 2 && strings.HasPrefix(args[0], "-") {
		switch args[0] {
		case "-url":
			url = args[1]
		case "-f":
			stmts = ts.ReadFile(args[1])
		default:
			ts.Fatalf("usage: sql [-url URL] [-f FILE] [STATEMENTS...]")
		}
		args = args[2:]
	}
	if len(args) > 0 {
		stmts = strings.TrimSpace(stmts + "\n" + strings.Join(args, " "))
	}
	if strings.TrimSpace(stmts) == "" {
		ts.Fatalf("usage: sql [-url URL] [-f FILE] [STATEMENTS...]: no statements")
	}
	return url, stmts
}

// runSQL runs stmts on url and prints the rows of every result to out.
func runSQL(ctx context.Context, url, stmts string, out io.Writer) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	results, err := conn.PgConn().Exec(ctx, stmts).ReadAll()
	if err != nil {
		return err
	}
	for _, r := range results {
		if r.Err != nil {
			return r.Err
		}
		printRows(out, r.Rows)
	}
	return nil
}

// printRows prints rows of text values as psql -At does.
func printRows(out io.Writer, rows [][][]byte) {
	for _, row := range rows {
		vals := make([]string, len(row))
		for i, v := range row {
			vals[i] = string(v)
		}
		fmt.Fprintln(out, strings.Join(vals, "|"))
	}
}
