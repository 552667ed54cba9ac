package pipecli_test

import (
	"strings"
	"testing"
)

// Every numeric option is checked against its range before anything is
// enqueued: a page near the integer limit would overflow the page's end.
func TestNumericOptionsOutOfRangeAreUsageErrors(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for _, args := range [][]string{
		{"import", "x.csv", "--into", "t", "--page-bytes", "9223372036854775807"},
		{"import", "x.csv", "--into", "t", "--page-bytes", "1073741825"},
		{"import", "x.csv", "--into", "t", "--max-row-errors", "-1"},
		{"export", "t", "--to", t.TempDir(), "--page-rows", "100000001"},
		{"export", "t", "--to", t.TempDir(), "--page-rows", "-1"},
		{"subject", "erase", "--config", "none.json", "--id", "1", "--page-rows", "1000001"},
		{"subject", "export", "--config", "none.json", "--id", "1", "--to", t.TempDir(), "--page-rows", "-5"},
	} {
		r := b.pipe(t, args...)
		wantError(t, r, 2, "X_CONFIG_INVALID")
		if !strings.Contains(r.stderr, "is not from") && !strings.Contains(r.stderr, "negative") {
			t.Errorf("%v: %s", args, r.stderr)
		}
	}
	var n int
	if err := b.pool.QueryRow(t.Context(), `select count(*) from pipe.jobs`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d runs enqueued (%v)", n, err)
	}
}
