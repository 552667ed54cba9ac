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

// Queues answers every queue that holds a run not done or cancelled, or a
// pause, with its depth per state. It reads an index of the runs that are
// not done, so its cost follows the open runs, not the done ones a busy
// table keeps until maintenance purges them.
func (a *Admin) Queues(ctx context.Context) ([]QueueStats, error) {
	rows, err := a.db.Query(ctx, sqlQueueStats)
	if err != nil {
		return nil, adminErr("queues", err)
	}
	defer rows.Close()
	var out []QueueStats
	for rows.Next() {
		var q QueueStats
		if err := rows.Scan(&q.Queue, &q.Paused, &q.Ready, &q.Delayed, &q.Running, &q.Suspended, &q.Failed, &q.Dead, &q.Due); err != nil {
			return nil, adminErr("queues", err)
		}
		out = append(out, q)
	}
	return out, adminErr("queues", rows.Err())
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
