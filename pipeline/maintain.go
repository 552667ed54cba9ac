package pipeline

import (
	"context"
	"time"
)

// Retention says how long finished runs and their journals are kept.
type Retention struct {
	// Done is how long done and cancelled runs are kept. Default 14 days.
	Done time.Duration
	// Dead is how long dead and failed runs are kept. Default 90 days.
	Dead time.Duration
}

// MaintainResult is what one maintenance pass removed or rolled up.
type MaintainResult struct {
	Purged     int64 `json:"purged"`
	RolledUp   int64 `json:"rolledUp"`
	Published  int64 `json:"publishedEventsPurged"`
	OldWorkers int64 `json:"workersPurged"`
	Deliveries int64 `json:"webhookDeliveriesPurged"`
}

// Maintain is the hourly housekeeping: it purges finished runs (and their
// journals) past their retention, rolls counters into their tiers (5-minute
// buckets past 24 h, hourly past 7 d, none past 30 d), and drops expired
// worker rows, and published events and webhook delivery rows older than
// the dead retention. Run it
// from a task (see MaintenanceTask) or by hand; it is safe to run anywhere,
// any time.
func Maintain(ctx context.Context, db DB, r Retention) (MaintainResult, error) {
	if r.Done == 0 {
		r.Done = 14 * 24 * time.Hour
	}
	if r.Dead == 0 {
		r.Dead = 90 * 24 * time.Hour
	}
	var m MaintainResult
	err := db.QueryRow(ctx, sqlMaintain, r.Done, r.Dead).Scan(&m.Purged, &m.RolledUp, &m.Published, &m.OldWorkers, &m.Deliveries)
	return m, adminErr("maintain", err)
}
