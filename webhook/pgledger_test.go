package webhook_test

import (
	"context"
	"testing"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/webhook"
)

// Maintenance purges ledger rows older than the dead retention and keeps
// the newer ones.
func TestMaintenancePurgesTheLedger(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := context.Background()
	l := webhook.PostgresLedger(pool)
	for _, ev := range []string{"old", "new"} {
		if err := l.Record(ctx, webhook.Attempt{Job: "j", RunID: "0190c6f0-7a36-7cc1-a3f2-5e0c2b7d9a11", EndpointID: "e", EventID: ev,
			Attempt: 1, Status: 200, Outcome: webhook.Delivered}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := pool.Exec(ctx, `update pipe.webhook_deliveries set at = at - interval '100 days' where event_id = 'old'`); err != nil {
		t.Fatal(err)
	}
	m, err := pipeline.Maintain(ctx, pool, pipeline.Retention{})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := l.List(ctx, webhook.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Deliveries != 1 || len(rows) != 1 || rows[0].EventID != "new" {
		t.Fatalf("purged %d, kept %+v: want the 100-day-old row purged, the new kept", m.Deliveries, rows)
	}
}
