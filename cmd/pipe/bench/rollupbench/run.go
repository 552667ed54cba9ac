package rollupbench

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/rollup"
)

// runOnce enqueues one run, works it with a worker of its own and answers
// its result, its time from claim to settle (from the journal, on the
// database clock) and its time from enqueue to settle (the wall clock: the
// worker's pickup included).
func (b *bench) runOnce(ctx context.Context) error {
	res, run, wall, err := b.timeRun(ctx, rollup.Request{})
	if err != nil {
		return err
	}
	b.fig.AllRunsMs, b.walls = append(b.fig.AllRunsMs, run), append(b.walls, wall)
	b.fig.RowsRead, b.fig.Buckets = res.Rows, res.Buckets
	return nil
}

// full times one backfill from the source's first row: the whole table
// recomputed, what a plain materialized view does on every refresh.
func (b *bench) full(ctx context.Context) error {
	var first time.Time
	if err := b.pool.QueryRow(ctx, `select min(created_at) from `+b.src).Scan(&first); err != nil {
		return err
	}
	res, run, _, err := b.timeRun(ctx, rollup.Request{From: first})
	b.fig.FullMs, b.fig.FullRows = run, res.Rows
	return err
}

func (b *bench) timeRun(ctx context.Context, in rollup.Request) (rollup.Result, float64, float64, error) {
	var res rollup.Result
	reg, err := pipeline.NewRegistry(b.job)
	if err != nil {
		return res, 0, 0, err
	}
	w, err := pipeline.NewWorker(b.pool, pipeline.WorkerConfig{Registry: reg, Queues: map[string]int{b.job.Queue(): 1},
		PollInterval: 5 * time.Millisecond, IdlePollMax: 20 * time.Millisecond, Logger: b.o.Logger})
	if err != nil {
		return res, 0, 0, err
	}
	if err := w.Start(ctx); err != nil {
		return res, 0, 0, err
	}
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = w.Shutdown(sctx)
	}()
	start := time.Now()
	enq, err := b.job.Enqueue(ctx, b.pool, in)
	if err != nil {
		return res, 0, 0, err
	}
	d, err := await(ctx, b.pool, enq.ID)
	if err != nil {
		return res, 0, 0, err
	}
	run := ms(time.Since(start))
	if d.State != "done" {
		return res, 0, 0, fmt.Errorf("the bench's rollup run ended %s: %v", d.State, d.LastError)
	}
	if err := json.Unmarshal(d.Result, &res); err != nil {
		return res, 0, 0, err
	}
	return res, claimToSettle(d), run, nil
}

// claimToSettle is the time from the run's claim to its last journal
// event, its settle.
func claimToSettle(d *pipeline.RunDetail) float64 {
	var claimed time.Time
	for _, e := range d.Journal {
		if e.Kind == "claimed" && claimed.IsZero() {
			claimed = e.At
		}
	}
	if claimed.IsZero() || len(d.Journal) == 0 {
		return 0
	}
	return ms(d.Journal[len(d.Journal)-1].At.Sub(claimed))
}

func await(ctx context.Context, pool *pgxpool.Pool, id string) (*pipeline.RunDetail, error) {
	adm := pipeline.NewAdmin(pool)
	deadline := time.Now().Add(10 * time.Minute)
	for {
		d, err := adm.Show(ctx, id)
		if err != nil {
			return nil, err
		}
		if !d.State.Live() {
			return d, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("the bench's rollup run is still %s after 10 minutes", d.State)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// scan answers how the planner reads the source for the run's statement:
// the scan node on the source table and the index it uses.
func (b *bench) scan(ctx context.Context) (string, error) {
	stmt, err := rollup.SQL(b.opts)
	if err != nil {
		return "", err
	}
	var since time.Time
	if err := b.pool.QueryRow(ctx, `select pipe.bucket_start('day', pipe.now() - $1::int8 * interval '1 microsecond', $2)`,
		b.o.Lookback.Microseconds(), b.o.Zone).Scan(&since); err != nil {
		return "", err
	}
	tx, err := b.pool.Begin(ctx)
	if err != nil {
		return "", err
	}
	defer tx.Rollback(ctx)
	var plan []struct{ Plan node }
	if err := tx.QueryRow(ctx, "explain (format json) "+stmt, "day", b.o.Zone, since).Scan(&plan); err != nil {
		return "", err
	}
	if len(plan) == 0 {
		return "no plan", nil
	}
	if s := plan[0].Plan.find(b.src); s != "" {
		return s, nil
	}
	return "no scan of the source in the plan", nil
}

// node is one node of an EXPLAIN (FORMAT JSON) plan.
type node struct {
	Type     string `json:"Node Type"`
	Relation string `json:"Relation Name"`
	Index    string `json:"Index Name"`
	Plans    []node `json:"Plans"`
}

// find answers the scan of rel in the plan: its node type and the index it
// (or a bitmap index scan under it) uses.
func (n node) find(rel string) string {
	if n.Relation == rel {
		idx := n.Index
		for _, c := range n.Plans {
			if c.Index != "" {
				idx = c.Index
			}
		}
		if idx == "" {
			return strings.ToLower(n.Type)
		}
		return strings.ToLower(n.Type) + " using " + idx
	}
	for _, c := range n.Plans {
		if s := c.find(rel); s != "" {
			return s
		}
	}
	return ""
}

// cleanJobs removes a bench job's rows.
func cleanJobs(ctx context.Context, pool *pgxpool.Pool, name string) error {
	if _, err := pool.Exec(ctx, `delete from pipe.events e using pipe.jobs j where j.name = $1 and e.job_id = j.id`, name); err != nil {
		return err
	}
	_, err := pool.Exec(ctx, `delete from pipe.jobs where name = $1`, name)
	return err
}

// cleanup drops the sizes' tables and their job rows.
func cleanup(pool *pgxpool.Pool, sizes []*bench) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, b := range sizes {
		_, _ = pool.Exec(ctx, `drop table if exists `+b.src+`, `+b.target)
		_ = cleanJobs(ctx, pool, b.opts.Name)
	}
}
