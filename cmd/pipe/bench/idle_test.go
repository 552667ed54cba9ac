package bench_test

import (
	"strings"
	"testing"
)

// pipe bench idle prints a line per component and the relay's pickup, the
// relay's wake live, leaves none of its databases behind, and refuses an
// unknown component.
func TestBenchIdle(t *testing.T) {
	t.Parallel()
	b := setup(t)
	r := b.pipe(t, "bench", "idle", "--window", "2s", "--warmup", "1s", "--samples", "1", "--components", "relay,console")
	wantOK(t, r)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	want := []string{"idle cost over 2s each", "relay ", "relay pickup of a staged message", "console "}
	if len(lines) != len(want) {
		t.Fatalf("bench printed:\n%s", r.stdout)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Fatalf("line %d is %q; want %q...", i, lines[i], w)
		}
	}
	if !strings.Contains(lines[1], "wake live") {
		t.Fatalf("the relay's line %q does not say its wake is live", lines[1])
	}
	var left int
	if err := b.pool.QueryRow(t.Context(), `select count(*) from pg_database where datname ~ '^pipe_idle_(relay|console)_[0-9a-f]{8}$'`).Scan(&left); err != nil || left != 0 {
		t.Fatalf("%d bench databases left behind (%v)", left, err)
	}
	wantError(t, b.pipe(t, "bench", "idle", "--components", "browser"), 2, "X_CONFIG_INVALID")
}
