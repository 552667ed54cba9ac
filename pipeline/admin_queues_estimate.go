package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"slices"
)

// queueOpenExact is the most open runs in each open state (ready,
// delayed, running, suspended), all queues together, that Queues counts
// exactly; queueFinishedExact the most failed and dead ones together of one
// queue. Past them Queues estimates. They are variables for the tests' sake.
var (
	queueOpenExact     int64 = 100_000
	queueFinishedExact int64 = 1_000
)

// The statement whose rows the planner estimates: a queue's runs of the
// earlier layout in one state ($2).
const estimateLegacy = `select from pipe.jobs_legacy where queue = $1 and state = $2`

// estimateQueues replaces the counts of qs that reached their cap with
// estimates, and marks them. It reads no run: the planner's estimate of an
// open state's rows (runs_open's statistics), and the statistics of the
// runs_dead partitions (see estimateFinishedSQL), kept by autovacuum's
// ANALYZE. The capped counts share that out as they shared the rows they
// read: an open state's among the queues (and a queue's due runs as its
// waiting ones), a queue's failed and dead runs as the first of them read.
// (The planner's own estimate for a queue and a state assumes the queue's
// states are shared as the table's are, which one failing queue beside a
// healthy one belies.) An estimate is never below the count found before
// the cap (statistics lag behind a queue that grew since). With legacy, the
// failed and dead runs still in the earlier layout are added, as the
// planner estimates them.
func estimateQueues(ctx context.Context, db DB, qs []QueueStats, legacy bool) error {
	if err := estimateOpen(ctx, db, qs); err != nil {
		return err
	}
	if err := estimateFinished(ctx, db, qs); err != nil {
		return err
	}
	if !legacy {
		return nil
	}
	for i := range qs {
		q := &qs[i]
		n, err := plannedStates(ctx, db, estimateLegacy, q.Queue, StateFailed, StateDead)
		if err != nil {
			return err
		}
		q.Failed, q.Dead, q.Estimated.Finished = q.Failed+roundRows(n[0]), q.Dead+roundRows(n[1]), true
	}
	return nil
}

// The statements of a queue's open runs when a state's pass over all
// queues reached its cap: each queue's waiting runs ($2 the cap, read
// through runs_open_claimable, which leads with the queue) or running ones,
// and the planner's estimate of either for one queue.
const (
	countWaitingSQL = `select q.queue,
           count(*) filter (where s.state = 'ready'), count(*) filter (where s.state = 'delayed'),
           count(*) filter (where s.state = 'suspended'), count(*) filter (where s.run_at <= (select pipe.now()))
    from unnest($1::text[]) q(queue)
    cross join lateral (select r.state, r.run_at from pipe.runs_open r
          where r.queue = q.queue and r.state in ('ready', 'delayed', 'suspended') limit $2) s
    group by q.queue`
	countRunningSQL = `select q.queue, count(*)
    from unnest($1::text[]) q(queue)
    cross join lateral (select from pipe.runs_open r where r.queue = q.queue and r.state = 'running' limit $2) s
    group by q.queue`
	estimateWaiting = `select from pipe.runs_open where queue = $1 and state in ('ready', 'delayed', 'suspended')`
	estimateRunning = `select from pipe.runs_open where queue = $1 and state = 'running'`
)

// estimateOpen recounts the open runs per queue when the pass over all
// queues stopped at its cap in a state (a backlog past queueOpenExact runs
// in that state): each queue's waiting, or running, runs up to the cap,
// exact below it, and past it the planner's estimate of the queue's rows,
// split as the count found them.
func estimateOpen(ctx context.Context, db DB, qs []QueueStats) error {
	var ready, delayed, running, suspended int64
	names := make([]string, len(qs))
	index := make(map[string]int, len(qs))
	for i, q := range qs {
		ready, delayed, running, suspended = ready+q.Ready, delayed+q.Delayed, running+q.Running, suspended+q.Suspended
		names[i], index[q.Queue] = q.Queue, i
	}
	at := func(queue string) *QueueStats { return &qs[index[queue]] }
	if max(ready, delayed, suspended) > queueOpenExact {
		rows, err := db.Query(ctx, countWaitingSQL, names, queueOpenExact+1)
		if err != nil {
			return err
		}
		for i := range qs {
			qs[i].Ready, qs[i].Delayed, qs[i].Suspended, qs[i].Due = 0, 0, 0, 0
		}
		for rows.Next() {
			var queue string
			var r, d, s, due int64
			if err := rows.Scan(&queue, &r, &d, &s, &due); err != nil {
				rows.Close()
				return err
			}
			q := at(queue)
			q.Ready, q.Delayed, q.Suspended, q.Due = r, d, s, due
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for i := range qs {
			q := &qs[i]
			if waiting := q.Ready + q.Delayed + q.Suspended; waiting > queueOpenExact {
				n, err := plannedRows(ctx, db, estimateWaiting, q.Queue)
				if err != nil {
					return err
				}
				c := scaleCounts(n, waiting, q.Ready, q.Delayed, q.Suspended, q.Due)
				q.Ready, q.Delayed, q.Suspended, q.Due, q.Estimated.Open = c[0], c[1], c[2], c[3], true
			}
		}
	}
	if running > queueOpenExact {
		rows, err := db.Query(ctx, countRunningSQL, names, queueOpenExact+1)
		if err != nil {
			return err
		}
		for i := range qs {
			qs[i].Running = 0
		}
		for rows.Next() {
			var queue string
			var n int64
			if err := rows.Scan(&queue, &n); err != nil {
				rows.Close()
				return err
			}
			at(queue).Running = n
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for i := range qs {
			q := &qs[i]
			if q.Running > queueOpenExact {
				n, err := plannedRows(ctx, db, estimateRunning, q.Queue)
				if err != nil {
					return err
				}
				q.Running, q.Estimated.Running = scaleCounts(n, q.Running, q.Running)[0], true
			}
		}
	}
	return nil
}

// scaleCounts answers parts scaled by total/whole: total is the planner's
// estimate of the rows a capped count found whole of, and the parts (the
// states, the due runs) share it as they shared whole. A total below whole
// leaves the parts as counted.
func scaleCounts(total float64, whole int64, parts ...int64) []int64 {
	out := slices.Clone(parts)
	if total <= float64(whole) {
		return out
	}
	for i, p := range parts {
		out[i] = roundRows(float64(p) * total / float64(whole))
	}
	return out
}

// plannedStates answers the planner's estimate of sql's rows for queue in
// each of states.
func plannedStates(ctx context.Context, db DB, sql, queue string, states ...State) ([]float64, error) {
	out := make([]float64, len(states))
	for i, s := range states {
		n, err := plannedRows(ctx, db, sql, queue, string(s))
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

// plannedRows answers the rows the planner expects sql to answer given
// args: EXPLAIN plans it with the values, and reads no row. sql is one of
// the estimate statements above.
func plannedRows(ctx context.Context, db DB, sql string, args ...any) (float64, error) {
	var raw []byte
	if err := db.QueryRow(ctx, "explain (format json) "+sql, args...).Scan(&raw); err != nil {
		return 0, err
	}
	var plan []struct {
		Plan struct {
			Rows float64 `json:"Plan Rows"`
		}
	}
	if err := json.Unmarshal(raw, &plan); err != nil {
		return 0, err
	}
	if len(plan) != 1 {
		return 0, errors.New("explain answered no plan")
	}
	if plan[0].Plan.Rows <= 1 {
		// The planner expects one row at the least of any scan: one
		// says it knows of none.
		return 0, nil
	}
	return plan[0].Plan.Rows, nil
}

func roundRows(f float64) int64 { return int64(math.Round(f)) }
