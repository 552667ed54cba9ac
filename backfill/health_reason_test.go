package backfill

import (
	"strings"
	"testing"
	"time"
)

// The replica's lag is read from pg_stat_replication, which this machine's
// server (no replica) leaves empty: the wording and the limits are held here.
func TestTheReasonNamesTheFirstLimitPassed(t *testing.T) {
	h := Health{ReplicationLag: 10 * time.Second, TransactionAge: 10 * time.Minute, XIDAge: 1_000_000_000}
	lag := 12.3
	for _, c := range []struct {
		lag   *float64
		txAge float64
		xid   int64
		want  string
	}{
		{&lag, 0, 10, "a replica lags 12.3s behind (limit 10s)"},
		{nil, 0, 10, ""},
		{nil, 601, 10, "a transaction open for 10m1s holds back vacuum"},
		{nil, 0, 1_500_000_000, "near wraparound"},
	} {
		if got := h.reason(c.lag, c.txAge, c.xid); c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("reason(%v, %v, %d) = %q, want %q", c.lag, c.txAge, c.xid, got, c.want)
		}
	}
	off := Health{ReplicationLag: -1, TransactionAge: -1, XIDAge: -1}
	if got := off.reason(&lag, 10_000, 2_000_000_000); got != "" {
		t.Errorf("every check off still reads %q", got)
	}
}
