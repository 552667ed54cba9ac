package pipeline

import (
	"slices"
	"strings"
	"testing"
)

// The fresh enqueue is its own file, read as SQL; this holds it to the
// enqueue it stands in for: the same statement, but for the live-key ON
// CONFLICT clause.
func TestTheFreshEnqueueIsTheEnqueueWithoutItsConflictClause(t *testing.T) {
	plain, fresh := sqlLines(sqlEnqueue.SQL), sqlLines(sqlEnqueueFresh.SQL)
	conflict := slices.IndexFunc(plain, func(l string) bool { return strings.HasPrefix(l, "on conflict (name, tenant, idem_key)") })
	if conflict < 0 {
		t.Fatal("enqueue.sql has no live-key ON CONFLICT clause")
	}
	want := slices.Delete(slices.Clone(plain), conflict, conflict+1)
	if !slices.Equal(fresh, want) {
		t.Fatalf("enqueue_fresh.sql is not enqueue.sql without its ON CONFLICT clause:\n%s\n---\n%s",
			strings.Join(fresh, "\n"), strings.Join(want, "\n"))
	}
}

// sqlLines answers a statement's lines without comment lines, trimmed.
func sqlLines(sql string) []string {
	var out []string
	for _, l := range strings.Split(sql, "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "--") {
			out = append(out, l)
		}
	}
	return out
}
