package rollup_test

import (
	"testing"
	"time"

	"github.com/pipekit/pipe/rollup"
)

func TestWindowKeyIsOneLiveRunPerWindowOrBackfill(t *testing.T) {
	from := time.Date(2026, 3, 8, 7, 0, 0, 0, time.FixedZone("EST", -5*3600))
	for in, want := range map[rollup.Request]string{
		{}:           "window",
		{From: from}: "from 2026-03-08T12:00:00Z",
	} {
		if got := rollup.WindowKey(in); got != want {
			t.Errorf("WindowKey(%v) = %q; want %q", in.From, got, want)
		}
	}
}
