package pipeline

import (
	"context"
	"time"
)

// Counter is one bucket of a job's history: runs done, attempts retried,
// runs failed and dead-lettered, and the summed duration of done runs.
type Counter struct {
	Job        string    `json:"job"`
	Bucket     time.Time `json:"bucket"`
	Done       int64     `json:"done"`
	Retried    int64     `json:"retried"`
	Failed     int64     `json:"failed"`
	Dead       int64     `json:"dead"`
	DurationMs int64     `json:"durationMs"`
}

// Counters answers the buckets of one job (every job when job is "") since
// an instant, oldest first. Buckets are 1 minute wide for the last 24 h,
// 5 minutes for 7 days and 1 hour for 30 days (see Maintain).
func (a *Admin) Counters(ctx context.Context, job string, since time.Time) ([]Counter, error) {
	rows, err := a.db.Query(ctx, `select job, bucket, done, retried, failed, dead, duration_ms from pipe.job_counters
		where ($1 = '' or job = $1) and bucket >= $2 order by bucket, job`, job, since)
	if err != nil {
		return nil, adminErr("counters", err)
	}
	defer rows.Close()
	var out []Counter
	for rows.Next() {
		var c Counter
		if err := rows.Scan(&c.Job, &c.Bucket, &c.Done, &c.Retried, &c.Failed, &c.Dead, &c.DurationMs); err != nil {
			return nil, adminErr("counters", err)
		}
		out = append(out, c)
	}
	return out, adminErr("counters", rows.Err())
}

// CounterTotals answers each job's counters summed since an instant.
func (a *Admin) CounterTotals(ctx context.Context, since time.Time) ([]Counter, error) {
	rows, err := a.db.Query(ctx, `select job, min(bucket), sum(done)::bigint, sum(retried)::bigint, sum(failed)::bigint,
		sum(dead)::bigint, sum(duration_ms)::bigint from pipe.job_counters where bucket >= $1 group by job order by job`, since)
	if err != nil {
		return nil, adminErr("counter totals", err)
	}
	defer rows.Close()
	var out []Counter
	for rows.Next() {
		var c Counter
		if err := rows.Scan(&c.Job, &c.Bucket, &c.Done, &c.Retried, &c.Failed, &c.Dead, &c.DurationMs); err != nil {
			return nil, adminErr("counter totals", err)
		}
		out = append(out, c)
	}
	return out, adminErr("counter totals", rows.Err())
}
