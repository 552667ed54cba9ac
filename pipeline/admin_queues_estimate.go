package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"slices"
)

// queueOpenExact is the most waiting runs (ready, delayed and suspended
// together), and the most running ones, of one queue that Queues counts
// exactly; queueFinishedExact the most failed and dead ones together.
// Past them Queues estimates. They are variables for the tests' sake.
var (
	queueOpenExact     int64 = 100_000
	queueFinishedExact int64 = 10_000
)

// The statements whose rows the planner estimates: one queue's waiting,
// running, and failed and dead runs, and those of the earlier layout in one
// state ($2).
const (
	estimateWaiting  = `select from pipe.runs_open where queue = $1 and state in ('ready', 'delayed', 'suspended')`
	estimateRunning  = `select from pipe.runs_open where queue = $1 and state = 'running'`
	estimateFinished = `select from pipe.runs_dead where queue = $1`
	estimateLegacy   = `select from pipe.jobs_legacy where queue = $1 and state = $2`
)

// estimateQueue replaces q's counts that reached their cap with estimates, and
// marks them. The planner estimates the queue's rows of the group (its
// waiting runs, its running ones, its failed and dead ones) from the
// tables' statistics — each partition's row count and the queue's share of
// it, kept by autovacuum's ANALYZE — so it reads no run. The capped count
// splits that total by the shares of the states (and of the due runs) in
// the rows it read: the newest failed and dead runs, the waiting ones as
// stored. (The planner's own estimate for a queue and a state assumes the
// queue's states are shared as the table's are, which one failing queue
// beside a healthy one belies.) An estimate is never below the count
// found before the cap (statistics lag behind a queue that grew since). With legacy, the failed and dead runs
// still in the earlier layout are added, as the planner estimates them.
func estimateQueue(ctx context.Context, db DB, q *QueueStats, legacy bool) error {
	if waiting := q.Ready + q.Delayed + q.Suspended; waiting > queueOpenExact {
		n, err := plannedRows(ctx, db, estimateWaiting, q.Queue)
		if err != nil {
			return err
		}
		c := scaleCounts(n, waiting, q.Ready, q.Delayed, q.Suspended, q.Due)
		q.Ready, q.Delayed, q.Suspended, q.Due, q.Estimated.Open = c[0], c[1], c[2], c[3], true
	}
	if q.Running > queueOpenExact {
		n, err := plannedRows(ctx, db, estimateRunning, q.Queue)
		if err != nil {
			return err
		}
		q.Running, q.Estimated.Running = scaleCounts(n, q.Running, q.Running)[0], true
	}
	if q.Failed+q.Dead > queueFinishedExact {
		n, err := plannedRows(ctx, db, estimateFinished, q.Queue)
		if err != nil {
			return err
		}
		c := scaleCounts(n, q.Failed+q.Dead, q.Failed, q.Dead)
		q.Failed, q.Dead, q.Estimated.Finished = c[0], c[1], true
	}
	if legacy {
		n, err := plannedStates(ctx, db, estimateLegacy, q.Queue, StateFailed, StateDead)
		if err != nil {
			return err
		}
		q.Failed, q.Dead, q.Estimated.Finished = q.Failed+roundRows(n[0]), q.Dead+roundRows(n[1]), true
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
