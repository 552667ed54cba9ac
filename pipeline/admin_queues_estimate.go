package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"slices"
)

// queueOpenPass is the most open runs in each open state (ready, delayed,
// running, suspended), all queues together, that Queues reads in its one
// pass over the open runs: below it every queue's count is exact. Past it
// Queues counts each queue's runs in that state again, exactly up to
// queueOpenExact a queue and estimated above. queueFinishedExact is the
// most failed and dead runs together of one queue it counts. The caps
// bound what a read of the queues costs, whatever the backlog (some 20 ms
// at 10M finished and 100,000 open runs); they are variables for the
// tests' sake.
var (
	queueOpenPass      int64 = 5_000
	queueOpenExact     int64 = 100
	queueFinishedExact int64 = 100
)

// The statement whose rows the planner estimates: a queue's runs of the
// earlier layout in one state ($2).
const estimateLegacy = `select from pipe.jobs_legacy where queue = $1 and state = $2`

// estimateQueues replaces the counts of qs that reached their cap with
// estimates, and marks them. The open runs' come from a sample of the open
// runs' pages (see openSample); the failed and dead runs' from the
// statistics of the runs_dead partitions (see estimateFinishedSQL), kept by
// autovacuum's ANALYZE, shared out as the capped count found them. An
// estimate is never below the count found before the cap (statistics lag
// behind a queue that grew since). With legacy, the failed and dead runs
// still in the earlier layout are added, as the planner estimates them.
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
// through runs_open_claimable, which leads with the queue: the order by
// its columns keeps the planner there, where the state index would read
// every queue's runs to find one's) or running ones.
const (
	countWaitingSQL = `select q.queue,
           count(*) filter (where s.state = 'ready'), count(*) filter (where s.state = 'delayed'),
           count(*) filter (where s.state = 'suspended'), count(*) filter (where s.run_at <= (select pipe.now()))
    from unnest($1::text[]) q(queue)
    cross join lateral (select r.state, r.run_at from pipe.runs_open r
          where r.queue = q.queue and r.state in ('ready', 'delayed', 'suspended')
          order by r.name, r.run_at limit $2) s
    group by q.queue`
	countRunningSQL = `select q.queue, count(*)
    from unnest($1::text[]) q(queue)
    cross join lateral (select from pipe.runs_open r
          where r.queue = q.queue and r.state = 'running' and r.lease_until is not null limit $2) s
    group by q.queue`
)

// estimateOpen recounts the open runs per queue when the pass over all
// queues stopped at its cap in a state (a backlog past queueOpenPass runs
// in that state): each queue's waiting, or running, runs up to
// queueOpenExact, exact below it, and past it estimated from a sample of
// the open runs (see openSample), never below the recount.
func estimateOpen(ctx context.Context, db DB, qs []QueueStats) error {
	pass := passCounts(qs)
	if max(pass.ready, pass.delayed, pass.suspended) <= queueOpenPass && pass.running <= queueOpenPass {
		return nil
	}
	est, err := sampleOpen(ctx, db)
	if err != nil {
		return err
	}
	if max(pass.ready, pass.delayed, pass.suspended) > queueOpenPass {
		if err := recountWaiting(ctx, db, qs, est); err != nil {
			return err
		}
	}
	if pass.running > queueOpenPass {
		return recountRunning(ctx, db, qs, est)
	}
	return nil
}

// openCounts are the pass's counts of the open runs, all queues together.
type openCounts struct{ ready, delayed, running, suspended int64 }

func passCounts(qs []QueueStats) openCounts {
	var c openCounts
	for _, q := range qs {
		c.ready, c.delayed, c.running, c.suspended = c.ready+q.Ready, c.delayed+q.Delayed, c.running+q.Running, c.suspended+q.Suspended
	}
	return c
}

// recountWaiting counts each queue's waiting runs up to queueOpenExact,
// and estimates those past it.
func recountWaiting(ctx context.Context, db DB, qs []QueueStats, est openSample) error {
	rows, err := db.Query(ctx, countWaitingSQL, queueNames(qs), queueOpenExact+1)
	if err != nil {
		return err
	}
	for i := range qs {
		qs[i].Ready, qs[i].Delayed, qs[i].Suspended, qs[i].Due = 0, 0, 0, 0
	}
	at := queueIndex(qs)
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
			// never below what the recount found
			if e := est[q.Queue]; e.Ready+e.Delayed+e.Suspended > waiting {
				q.Ready, q.Delayed, q.Suspended, q.Due = e.Ready, e.Delayed, e.Suspended, max(e.Due, q.Due)
			}
			q.Estimated.Open = true
		}
	}
	return nil
}

// recountRunning counts each queue's running runs up to queueOpenExact,
// and estimates those past it.
func recountRunning(ctx context.Context, db DB, qs []QueueStats, est openSample) error {
	rows, err := db.Query(ctx, countRunningSQL, queueNames(qs), queueOpenExact+1)
	if err != nil {
		return err
	}
	for i := range qs {
		qs[i].Running = 0
	}
	at := queueIndex(qs)
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
			q.Running, q.Estimated.Running = max(q.Running, est[q.Queue].Running), true
		}
	}
	return nil
}

func queueNames(qs []QueueStats) []string {
	names := make([]string, len(qs))
	for i, q := range qs {
		names[i] = q.Queue
	}
	return names
}

// queueIndex answers a lookup of qs' entries by queue.
func queueIndex(qs []QueueStats) func(string) *QueueStats {
	index := make(map[string]int, len(qs))
	for i, q := range qs {
		index[q.Queue] = i
	}
	return func(queue string) *QueueStats { return &qs[index[queue]] }
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
