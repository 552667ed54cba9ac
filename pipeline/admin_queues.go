package pipeline

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// QueueStats is one queue as `pipe queues list` shows it.
type QueueStats struct {
	Queue     string `json:"queue"`
	Paused    bool   `json:"paused"`
	Ready     int64  `json:"ready"`
	Delayed   int64  `json:"delayed"`
	Running   int64  `json:"running"`
	Suspended int64  `json:"suspended"`
	Failed    int64  `json:"failed"`
	Dead      int64  `json:"dead"`
	// Due counts the runs whose time has come (ready, delayed or suspended
	// with run_at passed) and that wait for a slot. Due + Running is the
	// queue's demand: the slots it could use now.
	Due int64 `json:"due"`
	// Estimated says which counts are estimates (absent: none is).
	Estimated Estimates `json:"estimated,omitzero"`
}

// Estimates says which of a queue's counts are estimates rather than
// exact: Queues counts a queue's runs exactly up to a cap, and estimates
// past it (see Queues).
type Estimates struct {
	// Open covers Ready, Delayed, Suspended and Due.
	Open    bool `json:"open,omitempty"`
	Running bool `json:"running,omitempty"`
	// Finished covers Failed and Dead.
	Finished bool `json:"finished,omitempty"`
}

// PauseQueue stops every worker claiming from queue, fleet-wide, from each
// worker's next claim (the claim statement reads the pause itself).
// Enqueues still land.
func (a *Admin) PauseQueue(ctx context.Context, queue string) error {
	_, err := a.db.Exec(ctx, `insert into pipe.queue_pauses (queue) values ($1) on conflict do nothing`, queue)
	return adminErr("pause queue", err)
}

// ResumeQueue lets workers claim from queue again and announces it.
func (a *Admin) ResumeQueue(ctx context.Context, queue string) error {
	return adminErr("resume queue", pgx.BeginFunc(ctx, a.db, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `delete from pipe.queue_pauses where queue = $1`, queue); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, sqlNotify, queue)
		return err
	}))
}

// PausedQueues answers the paused queues.
func (a *Admin) PausedQueues(ctx context.Context) ([]string, error) {
	rows, err := a.db.Query(ctx, `select queue from pipe.queue_pauses order by queue`)
	if err != nil {
		return nil, adminErr("paused queues", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	return out, adminErr("paused queues", err)
}

// Queues answers every queue that holds an open run, a failed or dead one,
// or a pause, with its depth per state. Its cost follows the queues, not
// the runs: it counts the open runs exactly while each open state holds at
// most 5,000 of them (all queues together, read from one index), past
// that a queue's up to 100, and a queue's failed and dead ones (kept for
// the dead retention) up to 100; past a cap it answers an estimate (a
// sample of the open runs, the dead partitions' statistics), marked in
// Estimated (see estimateQueues). While an
// earlier layout's runs are still to move (pipe migrate), the failed and
// dead counts add the planner's estimate of those and are marked
// estimates too.
func (a *Admin) Queues(ctx context.Context) ([]QueueStats, error) {
	var out []QueueStats
	_, callersTx := a.db.(pgx.Tx)
	err := pgx.BeginFunc(ctx, a.db, func(tx pgx.Tx) error {
		restore, err := queuePlanSettings(ctx, tx, callersTx)
		if err != nil {
			return err
		}
		defer restore()
		var legacy bool
		if out, legacy, err = countQueues(ctx, tx); err != nil {
			return err
		}
		return estimateQueues(ctx, tx, out, legacy)
	})
	return out, adminErr("queues", err)
}

// countQueues answers the queues with their counts as queue_stats counts
// them (a count at its cap stopped there), and whether an earlier layout's
// runs are still to move.
func countQueues(ctx context.Context, db DB) ([]QueueStats, bool, error) {
	rows, err := db.Query(ctx, sqlQueueStats, queueOpenPass+1, queueFinishedExact+1)
	if err != nil {
		return nil, false, err
	}
	defer rows.Close()
	var out []QueueStats
	var legacy bool
	for rows.Next() {
		var q QueueStats
		if err := rows.Scan(&q.Queue, &q.Paused, &q.Ready, &q.Delayed, &q.Running, &q.Suspended, &q.Failed, &q.Dead, &q.Due,
			&legacy); err != nil {
			return nil, false, err
		}
		out = append(out, q)
	}
	return out, legacy, rows.Err()
}

// WorkerInfo is one running worker: it expires one lease after its last
// heartbeat, so a killed worker leaves by expiry.
type WorkerInfo struct {
	ID            string         `json:"id"`
	Host          string         `json:"host"`
	StartedAt     time.Time      `json:"startedAt"`
	Queues        map[string]int `json:"queues"`
	MaxInFlight   int            `json:"maxInFlight"`
	InFlight      []string       `json:"inFlight"`
	LastHeartbeat time.Time      `json:"lastHeartbeat"`
}

// Workers answers the workers whose heartbeat is within their lease.
func (a *Admin) Workers(ctx context.Context) ([]WorkerInfo, error) {
	rows, err := a.db.Query(ctx, `select id, host, started_at, queues, max_in_flight, in_flight::text[], last_heartbeat
		from pipe.workers where expires_at > pipe.now() order by id`)
	if err != nil {
		return nil, adminErr("workers", err)
	}
	defer rows.Close()
	var out []WorkerInfo
	for rows.Next() {
		var w WorkerInfo
		if err := rows.Scan(&w.ID, &w.Host, &w.StartedAt, &w.Queues, &w.MaxInFlight, &w.InFlight, &w.LastHeartbeat); err != nil {
			return nil, adminErr("workers", err)
		}
		out = append(out, w)
	}
	return out, adminErr("workers", rows.Err())
}
