package subject_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/subject"
)

// setup answers a fresh database holding ddl.
func setup(t testing.TB, ddl string) *pgxpool.Pool {
	t.Helper()
	pool := fixtures.DB(t)
	exec(t, pool, ddl)
	return pool
}

func exec(t testing.TB, pool *pgxpool.Pool, sql string, args ...any) {
	t.Helper()
	if _, err := pool.Exec(context.Background(), sql, args...); err != nil {
		t.Fatalf("%v\n%s", err, sql)
	}
}

func count(t testing.TB, pool *pgxpool.Pool, sql string, args ...any) int {
	t.Helper()
	var n int
	if err := pool.QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
		t.Fatalf("%v\n%s", err, sql)
	}
	return n
}

// plan plans d on pool, failing the test on a refusal.
func plan(t testing.TB, pool *pgxpool.Pool, d subject.Declaration) *subject.Plan {
	t.Helper()
	p, err := subject.NewPlan(context.Background(), pool, d)
	if err != nil {
		t.Fatalf("plan: %v", err)
	}
	return p
}

// refused plans d and answers the refusal, failing the test unless it has
// code and names every one of wants.
func refused(t testing.TB, pool *pgxpool.Pool, d subject.Declaration, code errcode.Code, wants ...string) error {
	t.Helper()
	_, err := subject.NewPlan(context.Background(), pool, d)
	if !errors.Is(err, code) {
		t.Fatalf("plan: %v; want %s", err, code)
	}
	for _, w := range wants {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("the refusal does not say %q:\n%v", w, err)
		}
	}
	return err
}

// order answers the plan's tables in order.
func order(p *subject.Plan) []string {
	out := make([]string, len(p.Tables))
	for i, t := range p.Tables {
		out[i] = t.Table
	}
	return out
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

func errorsIs(err error, code errcode.Code) bool { return errors.Is(err, code) }
