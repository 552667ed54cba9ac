package outboxmetrics_test

import (
	"context"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/outbox"
	"github.com/pipekit/pipe/outbox/outboxmetrics"
)

// A scrape reports each stream's waiting rows from the database.
func TestTheCollectorReportsEachStream(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := context.Background()
	for _, s := range []string{"a", "a", "b"} {
		if _, err := outbox.Stage(ctx, pool, outbox.Message{Stream: s, Payload: []byte("x")}); err != nil {
			t.Fatal(err)
		}
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(outboxmetrics.New(pool))
	want := `# HELP outbox_lag_rows Rows committed to the stream and not yet published (dead and held rows apart).
# TYPE outbox_lag_rows gauge
outbox_lag_rows{stream="a"} 2
outbox_lag_rows{stream="b"} 1
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "outbox_lag_rows"); err != nil {
		t.Fatal(err)
	}
}
