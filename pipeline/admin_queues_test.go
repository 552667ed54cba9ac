package pipeline_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// queueRuns inserts n runs of queue into pipe.runs, in states by turns
// (the i-th in states[i % len(states)]): a finished one finished now, a
// delayed one due in an hour, the others due.
func queueRuns(t *testing.T, pool *pgxpool.Pool, queue string, n int, states ...pipeline.State) {
	t.Helper()
	names := make([]string, len(states))
	for i, s := range states {
		names[i] = string(s)
	}
	_, err := pool.Exec(context.Background(), `insert into pipe.runs (id, run_id, name, queue, idem_key, input, state, max_attempts, run_at, finished_at, lease_until)
		select u, u, 'depth', $1, u::text, '{}', s, 3,
			case when s = 'delayed' then now() + interval '1 hour' else now() - interval '1 minute' end,
			case when s in ('done', 'cancelled', 'failed', 'dead') then now() end,
			case when s = 'running' then now() + interval '1 hour' end -- a running run holds a lease
		from (select gen_random_uuid() u, ($2::text[])[1 + i % cardinality($2::text[])] s from generate_series(0, $3::int - 1) i) g`,
		queue, names, n)
	if err != nil {
		t.Fatal(err)
	}
}

// A queue's depth is exact up to the caps; past them it is an estimate,
// marked, near the truth once the tables are analyzed: the planner's count
// of the queue's runs, split as the capped count found the states.
func TestQueueDepthIsExactBelowItsCapAndEstimatedAbove(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	pipeline.SetQueueExact(t, 500, 50, 400)
	for _, r := range []struct {
		queue  string
		n      int
		states []pipeline.State
	}{
		{"small", 10, []pipeline.State{"ready"}}, {"small", 5, []pipeline.State{"delayed"}},
		{"small", 3, []pipeline.State{"suspended"}}, {"small", 2, []pipeline.State{"running"}},
		{"small", 15, []pipeline.State{"failed", "dead"}}, {"small", 500, []pipeline.State{"done"}},
		{"big", 4000, []pipeline.State{"ready", "ready", "ready", "delayed"}}, {"big", 600, []pipeline.State{"running"}},
		{"big", 8000, []pipeline.State{"failed", "dead", "dead", "dead"}}, {"big", 100, []pipeline.State{"cancelled"}},
	} {
		queueRuns(t, pool, r.queue, r.n, r.states...)
	}
	admin := pipeline.NewAdmin(pool)
	if err := admin.PauseQueue(ctx, "idle"); err != nil {
		t.Fatal(err)
	}
	if _, err := fixtures.Owner(t, pool).Exec(ctx, `vacuum analyze pipe.runs`); err != nil {
		t.Fatal(err)
	}
	qs, err := admin.Queues(ctx)
	if err != nil || len(qs) != 3 || qs[0].Queue != "big" || qs[1].Queue != "idle" || qs[2].Queue != "small" {
		t.Fatalf("queues %+v, %v", qs, err)
	}
	if exact := pipeline.NewAdmin(pool); true {
		pipeline.SetQueueExact(t, 100_000, 100_000, 10_000)
		qs, err := exact.Queues(ctx)
		want := pipeline.QueueStats{Queue: "small", Ready: 10, Delayed: 5, Running: 2, Suspended: 3, Failed: 8, Dead: 7, Due: 13}
		if err != nil || len(qs) != 3 || qs[2] != want || qs[0].Ready != 3000 || qs[0].Dead != 6000 || qs[0].Estimated != (pipeline.Estimates{}) {
			t.Fatalf("below the caps %+v, %v; want every count exact", qs, err)
		}
		pipeline.SetQueueExact(t, 500, 50, 400)
	}
	small := pipeline.QueueStats{Queue: "small", Ready: 10, Delayed: 5, Running: 2, Suspended: 3, Failed: 8, Dead: 7, Due: 13}
	if qs[1] != (pipeline.QueueStats{Queue: "idle", Paused: true}) || qs[2] != small {
		t.Fatalf("the small queues %+v; want exact counts, none estimated", qs[1:])
	}
	big := qs[0]
	if big.Estimated != (pipeline.Estimates{Open: true, Running: true, Finished: true}) {
		t.Fatalf("big %+v; want every count marked an estimate", big)
	}
	for _, c := range []struct {
		name      string
		got, want int64
	}{
		{"ready", big.Ready, 3000}, {"delayed", big.Delayed, 1000}, {"running", big.Running, 600}, {"suspended", big.Suspended, 0},
		{"due", big.Due, 3000}, {"failed", big.Failed, 2000}, {"dead", big.Dead, 6000},
	} {
		if c.got < c.want*3/4 || c.got > c.want*5/4+5 {
			t.Errorf("big %s ~%d; want near %d", c.name, c.got, c.want)
		}
	}
	raw, _ := json.Marshal(qs)
	if !strings.Contains(string(raw), `"estimated":{"open":true,"running":true,"finished":true}`) ||
		strings.Count(string(raw), `"estimated"`) != 1 {
		t.Fatalf("JSON %s; want estimated on the big queue alone", raw)
	}
}

// Past its cap a count estimated from statistics that lag (the runs came
// after the last ANALYZE) answers no less than the capped count found:
// here 51 ready runs and 41 dead ones.
func TestQueueDepthEstimatesNoLessThanItCounted(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	pipeline.SetQueueExact(t, 50, 50, 40)
	if _, err := fixtures.Owner(t, pool).Exec(ctx, `vacuum analyze pipe.runs`); err != nil {
		t.Fatal(err)
	}
	queueRuns(t, pool, "late", 80, "ready")
	queueRuns(t, pool, "late", 70, "dead")
	qs, err := pipeline.NewAdmin(pool).Queues(ctx)
	if err != nil || len(qs) != 1 {
		t.Fatalf("queues %+v, %v", qs, err)
	}
	q := qs[0]
	if q.Ready < 51 || q.Due < 51 || q.Dead < 41 || !q.Estimated.Open || !q.Estimated.Finished || q.Estimated.Running {
		t.Fatalf("late %+v; want estimates no lower than the capped counts", q)
	}
}

func TestFormatEstimate(t *testing.T) {
	for n, want := range map[int64]string{
		0: "~0", 999: "~999", 1000: "~1k", 1234: "~1.2k", 9960: "~10k", 12345: "~12k", 999_999: "~1M",
		1_234_567: "~1.2M", 5_000_000_000: "~5B",
	} {
		if got := pipeline.FormatEstimate(n); got != want {
			t.Errorf("FormatEstimate(%d) = %q; want %q", n, got, want)
		}
	}
}

// A backlog enqueued since the last ANALYZE, which the planner's
// statistics know nothing of, is estimated near its size from a sample of
// the open runs, not at the cap; a small queue beside it stays exact.
func TestQueueDepthEstimatesABacklogTheStatisticsHaveNotSeen(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	pipeline.SetQueueExact(t, 500, 50, 400)
	if _, err := fixtures.Owner(t, pool).Exec(ctx, `vacuum analyze pipe.runs`); err != nil {
		t.Fatal(err)
	}
	queueRuns(t, pool, "fresh", 3000, "ready", "ready", "delayed")
	queueRuns(t, pool, "trickle", 7, "ready")
	qs, err := pipeline.NewAdmin(pool).Queues(ctx)
	if err != nil || len(qs) != 2 {
		t.Fatalf("queues %+v, %v", qs, err)
	}
	fresh, trickle := qs[0], qs[1]
	if !fresh.Estimated.Open || fresh.Ready < 1500 || fresh.Ready > 2500 || fresh.Delayed < 750 || fresh.Delayed > 1250 {
		t.Fatalf("fresh %+v; want an estimate near 2,000 ready and 1,000 delayed", fresh)
	}
	if trickle != (pipeline.QueueStats{Queue: "trickle", Ready: 7, Due: 7}) {
		t.Fatalf("trickle %+v; want its 7 ready runs, exact", trickle)
	}
}

// Queues over a caller's transaction leaves its planner settings as they
// were: the settings it reads under would otherwise last to the caller's
// commit.
func TestQueuesInACallersTransactionLeavesItsSettings(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	queueRuns(t, pool, "q", 3, "ready")
	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	if _, err := tx.Exec(ctx, `set local enable_bitmapscan = off`); err != nil {
		t.Fatal(err)
	}
	if qs, err := pipeline.NewAdmin(tx).Queues(ctx); err != nil || len(qs) != 1 || qs[0].Ready != 3 {
		t.Fatalf("queues %+v, %v", qs, err)
	}
	var seq, bitmap, jit string
	if err := tx.QueryRow(ctx, `select current_setting('enable_seqscan'), current_setting('enable_bitmapscan'),
		current_setting('jit')`).Scan(&seq, &bitmap, &jit); err != nil {
		t.Fatal(err)
	}
	var jitBefore string
	if err := pool.QueryRow(ctx, `select current_setting('jit')`).Scan(&jitBefore); err != nil {
		t.Fatal(err)
	}
	if seq != "on" || bitmap != "off" || jit != jitBefore {
		t.Fatalf("after Queues the caller's transaction reads enable_seqscan %s, enable_bitmapscan %s, jit %s; want on, off, %s",
			seq, bitmap, jit, jitBefore)
	}
}
