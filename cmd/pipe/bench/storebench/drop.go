package storebench

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/pipekit/pipe/pipeline"
)

// The stream beside the drop: one enqueue every streamGap, the warm-up
// before the drop and the tail after it.
const (
	streamGap    = 2 * time.Millisecond
	streamWarmup = time.Second
	streamTail   = 500 * time.Millisecond
)

// Drop is the retention dropping the oldest day of finished runs while an
// application enqueues and a worker claims.
type Drop struct {
	// Day is the UTC day whose partition expired; RetentionDone the
	// Retention.Done that expired it (and only it, among the days with
	// runs).
	Day           string `json:"day"`
	RetentionDone string `json:"retentionDone"`
	// MaintainMs times pipeline.Maintain, which dropped PartitionsDropped
	// partitions (the runs' and the journal's, the empty old edge and
	// day below it too) holding Purged runs.
	MaintainMs        float64 `json:"maintainMs"`
	PartitionsDropped int     `json:"partitionsDropped"`
	Purged            int64   `json:"purged"`
	PurgedEstimated   bool    `json:"purgedEstimated,omitempty"`
	// During is the stream's statements that overlapped Maintain, Before
	// those of the second before it, per kind.
	During []Statements `json:"during"`
	Before []Statements `json:"before"`
	// Enqueued counts the stream's runs; every one was worked.
	Enqueued int64 `json:"enqueued"`
}

// Statements are the latencies of one kind of statement (claim, enqueue,
// complete) in a window.
type Statements struct {
	Kind string `json:"kind"`
	Latency
}

// dropDay runs a stream on s — one Enqueue every 2ms, its wake throttle
// 2ms, and a worker as `pipe worker` makes one claiming and settling them —
// and, a second in,
// pipeline.Maintain on a pool of its own with a retention that expires the
// oldest day of finished runs. It answers what Maintain dropped and how
// long the stream's statements took while it ran.
func dropDay(ctx context.Context, s *scratch, days int, logger *slog.Logger) (Drop, error) {
	var d Drop
	var ran atomic.Int64
	job, err := noopJob(streamName, streamQueue, &ran)
	if err != nil {
		return d, err
	}
	// Each enqueue wakes the worker (pipe's default lets one wake through
	// per 250ms and queue), so that a claim follows every enqueue.
	job.SetWakeThrottle(streamGap)
	maint, err := s.newPool(ctx, 2)
	if err != nil {
		return d, err
	}
	defer maint.Close()
	s.timer.take()
	w, stopWorker, err := startWorker(ctx, s.pool, job, logger)
	if err != nil {
		return d, err
	}
	defer func() { _ = stopWorker() }()
	streamCtx, stopStream := context.WithCancel(ctx)
	defer stopStream()
	var enqueued atomic.Int64
	streamErr := make(chan error, 1)
	go func() { streamErr <- stream(streamCtx, s, job, &enqueued) }()

	time.Sleep(streamWarmup)
	var now time.Time
	if err := maint.QueryRow(ctx, `select pipe.now()`).Scan(&now); err != nil {
		return d, err
	}
	today := now.UTC().Truncate(24 * time.Hour)
	// The oldest day's partition ends days-1 days before today: keep the
	// runs a second less than that ago, and it alone of the days with runs
	// has expired.
	keep := now.Sub(today.AddDate(0, 0, -(days-1))) - time.Second
	d.Day, d.RetentionDone = today.AddDate(0, 0, -days).Format(time.DateOnly), keep.Round(time.Second).String()
	m0 := time.Now()
	res, err := pipeline.Maintain(ctx, maint, pipeline.Retention{Done: keep, Dead: 365 * 24 * time.Hour})
	m1 := time.Now()
	if err != nil {
		return d, fmt.Errorf("store bench: maintain: %w", err)
	}
	d.MaintainMs, d.PartitionsDropped, d.Purged = ms(m1.Sub(m0)), res.PartitionsDropped, res.Purged
	d.PurgedEstimated = res.PurgedEstimated
	if d.Purged == 0 {
		return d, errNoDrop
	}

	time.Sleep(streamTail)
	stopStream()
	if err := <-streamErr; err != nil {
		return d, err
	}
	d.Enqueued = enqueued.Load()
	if err := waitFor(ctx, "stream runs completed", w.Stats().Completed.Load, d.Enqueued); err != nil {
		return d, err
	}
	if err := stopWorker(); err != nil {
		return d, err
	}
	seen := s.timer.take()
	for _, k := range []string{kindEnqueue, kindClaim, kindComplete} {
		var during, before []time.Duration
		for _, t := range seen {
			switch {
			case t.kind != k:
			case t.start.Before(m1) && t.end().After(m0):
				during = append(during, t.took)
			case t.end().Before(m0) && t.start.After(m0.Add(-streamWarmup)):
				before = append(before, t.took)
			}
		}
		d.During = append(d.During, Statements{Kind: k, Latency: latency(during)})
		d.Before = append(d.Before, Statements{Kind: k, Latency: latency(before)})
	}
	return d, nil
}

// stream enqueues job's runs one at a time, a pause of streamGap between
// them, until ctx ends, counting them in n.
func stream(ctx context.Context, s *scratch, job *benchJob, n *atomic.Int64) error {
	for i := 1; ; i++ {
		if _, err := job.Enqueue(ctx, s.pool, input{I: i}); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("store bench: stream enqueue: %w", err)
		}
		n.Add(1)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(streamGap):
		}
	}
}

// errNoDrop is a drop that dropped no run: the bench's day arithmetic and
// the partitions disagree.
var errNoDrop = errors.New("store bench: the retention dropped no run; the oldest day's partition did not expire")
