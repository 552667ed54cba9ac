package bench_test

import (
	"strings"
	"testing"
)

// pipe bench outbox prints the anchor loop and the relay per batch size,
// the two staging figures and the lag, leaves no outbox row, run or table
// behind, and refuses a batch below 1.
func TestBenchOutbox(t *testing.T) {
	t.Parallel()
	b := setup(t)
	r := b.pipe(t, "bench", "outbox", "--rows", "2000", "--batch", "200", "--stages", "50", "--rate", "100", "--duration", "1s")
	wantOK(t, r)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	want := []string{"anchor (the spec's relay loop", "relay batch 200: 2000 rows of 1 KiB to JetStream in ", "anchor (a plain insert", "outbox.Stage in the app's transaction: 50 in ", "end-to-end lag at 100 rows/s for 1s (100 rows"}
	if len(lines) != len(want) {
		t.Fatalf("bench printed:\n%s", r.stdout)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Fatalf("line %d is %q; want %q...", i, lines[i], w)
		}
	}
	var left int
	err := b.pool.QueryRow(t.Context(), `select (select count(*) from pipe.jobs) + (select count(*) from pipe.outbox) + (select count(*) from pipe.consumer_cursors)
		+ (select count(*) from pg_tables where tablename = 'pipe_bench_outbox_plain')`).Scan(&left)
	if err != nil || left != 0 {
		t.Fatalf("%d rows or tables left behind (%v)", left, err)
	}
	wantError(t, b.pipe(t, "bench", "outbox", "--batch", "0"), 2, "X_CONFIG_INVALID")
}
