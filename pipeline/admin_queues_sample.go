package pipeline

import "context"

// openSample is the open runs of each queue by state estimated from a
// sample of runs_open's pages (TABLESAMPLE SYSTEM, about openSamplePages
// of them), scaled to the table: fresh whatever the statistics, which lag
// a backlog that grew since the last ANALYZE (a queue of 100,000 runs
// enqueued a moment ago is one the planner knows nothing of).
type openSample map[string]QueueStats

// openSamplePages is about how many of runs_open's pages a sample reads:
// some 12,000 runs, a few milliseconds; a queue of thousands of runs is
// estimated within some tenths of its size.
const openSamplePages = 300

const (
	sqlOpenPages  = `select greatest(pg_relation_size('pipe.runs_open') / current_setting('block_size')::bigint, 1)`
	sqlOpenSample = `select queue,
           count(*) filter (where state = 'ready'), count(*) filter (where state = 'delayed'),
           count(*) filter (where state = 'running'), count(*) filter (where state = 'suspended'),
           count(*) filter (where state <> 'running' and run_at <= (select pipe.now()))
    from pipe.runs_open tablesample system ($1)
    group by queue`
)

func sampleOpen(ctx context.Context, db DB) (openSample, error) {
	var pages int64
	if err := db.QueryRow(ctx, sqlOpenPages).Scan(&pages); err != nil {
		return nil, err
	}
	percent := min(100, 100*float64(openSamplePages)/float64(pages))
	rows, err := db.Query(ctx, sqlOpenSample, percent)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	scale := func(n int64) int64 { return roundRows(float64(n) * 100 / percent) }
	out := openSample{}
	for rows.Next() {
		var q QueueStats
		if err := rows.Scan(&q.Queue, &q.Ready, &q.Delayed, &q.Running, &q.Suspended, &q.Due); err != nil {
			return nil, err
		}
		q.Ready, q.Delayed, q.Running, q.Suspended, q.Due = scale(q.Ready), scale(q.Delayed), scale(q.Running), scale(q.Suspended), scale(q.Due)
		out[q.Queue] = q
	}
	return out, rows.Err()
}
