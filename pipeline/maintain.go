package pipeline

import (
	"context"
	"time"
)

// Retention says how long finished runs and their journals are kept.
// Finished runs live in partitions by the day (done, cancelled) or the week
// (dead, failed) they finished, and a partition is dropped whole once its
// newest possible run is older than the retention: a run is kept at least
// its retention and at most a day (a week for dead runs) longer.
type Retention struct {
	// Done is how long done and cancelled runs are kept. Default 14 days.
	Done time.Duration
	// Dead is how long dead and failed runs are kept. Default 90 days.
	Dead time.Duration
}

func (r Retention) withDefaults() Retention {
	if r.Done == 0 {
		r.Done = 14 * 24 * time.Hour
	}
	if r.Dead == 0 {
		r.Dead = 90 * 24 * time.Hour
	}
	return r
}

// MaintainResult is what one maintenance pass removed, made or rolled up.
type MaintainResult struct {
	// Purged counts the finished runs in the partitions dropped: exactly
	// for a partition of fewer than 100,000 runs, else from PostgreSQL's
	// statistics (the greater of pg_stat_all_tables.n_live_tup and
	// pg_class.reltuples), and then PurgedEstimated is set. Counting a day
	// of a million runs read the whole partition, half of the drop's time.
	Purged          int64 `json:"purged"`
	PurgedEstimated bool  `json:"purgedEstimated,omitempty"`
	// PartitionsDropped counts the partitions of finished runs and their
	// journals dropped past retention; PartitionsMade those made ahead of
	// need.
	PartitionsDropped int `json:"partitionsDropped"`
	PartitionsMade    int `json:"partitionsMade"`
	// DropsDeferred counts the expired partitions left for the next pass:
	// in a transaction, a drop that could not take its lock at once.
	DropsDeferred int `json:"dropsDeferred"`
	// Moved counts the finished runs of the earlier layout moved into the
	// partitions (see MoveLegacyRuns).
	Moved      int64 `json:"legacyRunsMoved"`
	RolledUp   int64 `json:"rolledUp"`
	Published  int64 `json:"publishedEventsPurged"`
	OldWorkers int64 `json:"workersPurged"`
	Deliveries int64 `json:"webhookDeliveriesPurged"`
}

// Maintain is the hourly housekeeping: it makes the partitions of finished
// runs the next days need, drops (whole) those past retention, moves a
// slice of the finished runs an earlier layout left behind, rolls counters
// into their tiers (5-minute buckets past 24 h, hourly past 7 d, none past
// 30 d), and drops expired worker rows, and published events and webhook
// delivery rows older than the dead retention. Run it from a task (see
// MaintenanceTask) or by hand; it is safe to run anywhere, any time.
//
// Given a pool, a partition is detached CONCURRENTLY, so that no claim,
// enqueue or settle waits on it. Given a transaction, it is detached in the
// transaction under a short lock timeout, and a drop that cannot have its
// lock at once is left for the next pass (DropsDeferred); settles into the
// finished partitions wait for that transaction to end. A pool that leads
// through a transaction pooler (see TransactionPooled) is given a
// transaction of its own: a concurrent detach needs a session lock, which
// such a pooler cannot keep.
func Maintain(ctx context.Context, db DB, r Retention) (MaintainResult, error) {
	m, err := housekeep(ctx, db, r)
	if err != nil {
		return m, err
	}
	err = applyRetention(ctx, db, r, &m)
	return m, err
}

// housekeep is the part of Maintain that is one transaction's work: the
// rows kept beside the runs, and the partitions ahead.
func housekeep(ctx context.Context, db DB, r Retention) (MaintainResult, error) {
	r = r.withDefaults()
	var m MaintainResult
	err := db.QueryRow(ctx, sqlMaintain, r.Dead).Scan(&m.RolledUp, &m.Published, &m.OldWorkers, &m.Deliveries)
	if err != nil {
		return m, adminErr("maintain", err)
	}
	m.PartitionsMade, err = EnsurePartitions(ctx, db)
	return m, err
}

// applyRetention drops the expired partitions, moves a slice of the earlier
// layout's runs, and vacuums the open runs when they need it.
func applyRetention(ctx context.Context, db DB, r Retention, m *MaintainResult) error {
	r = r.withDefaults()
	dropped := m.PartitionsDropped
	if err := dropExpired(ctx, db, r, m); err != nil {
		return err
	}
	if m.PartitionsDropped > dropped { // an old edge dropped is made again below the new first day
		made, err := EnsurePartitions(ctx, db)
		m.PartitionsMade += made
		if err != nil {
			return err
		}
	}
	moved, err := moveLegacySlice(ctx, db, legacySlice)
	m.Moved = moved
	if err != nil {
		return err
	}
	return vacuumOpen(ctx, db)
}
