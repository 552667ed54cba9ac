package webhookbench

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/cmd/pipe/bench/benchcpu"
	"github.com/pipekit/pipe/outbox"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/webhook"
)

const stagedJob = "pipe.bench.webhooks.staged"

// StagedRelayBatch is the staged figure's relay batch, as docs/webhooks.md
// declares a staged webhook's relay: 2,000 deliveries a batch posted
// 0.54-0.58x the POST loop where the relay's default 500 posted 0.41-0.53x
// (three interleaved rounds), the turn between two batches and each
// batch's tail spread over four times the deliveries. What it costs a
// user: a relay killed mid-batch posts up to 2,000 deliveries again, and
// the batch's transaction stays open while they are posted.
const StagedRelayBatch = 2000

// staged times the same deliveries as outbound's, to the same endpoints of
// the stock store, signed, the ledger and Health on, staged through the
// outbox (webhook.Staged at its defaults: MaxConnsPerHost 64, which posted
// more deliveries a second here than 256 at once did) instead of
// enqueued as runs: Deliveries staged (untimed, as outbound's enqueue is),
// then a worker at pipe worker's defaults running the relay (batches of
// StagedRelayBatch, its other options at their defaults), timed from its
// arming to the last delivery's ledger row.
func staged(ctx context.Context, pool *pgxpool.Pool, o Options, url string, r *Result) error {
	store, err := benchStore(ctx, pool, url)
	if err != nil {
		return err
	}
	defer dropEndpoints(pool)
	pg := webhook.PostgresLedger(pool)
	defer pg.Close()
	ledger := &countingLedger{PGLedger: pg}
	s, err := webhook.NewStaged(stagedJob, deliveryKey, pool, benchWebhook(store, ledger, stagedJob, 0))
	if err != nil {
		return err
	}
	cleanStaged(pool)
	defer cleanStaged(pool)
	if err := stageAll(ctx, pool, s, o.Deliveries); err != nil {
		return err
	}
	relay, err := outbox.New(outbox.Options{Name: stagedJob + ".relay", Streams: []outbox.Stream{s.Stream()}, Batch: StagedRelayBatch, Logger: o.Logger})
	if err != nil {
		return err
	}
	reg, err := pipeline.NewRegistry(append(relay.Jobs(), s.Job())...)
	if err != nil {
		return err
	}
	w, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg, Logger: o.Logger})
	if err != nil {
		return err
	}
	cpu := benchcpu.NewMeter(pool)
	proc0, db0 := cpu.Read(ctx)
	start := time.Now()
	if err := w.Start(ctx); err != nil {
		return err
	}
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = w.Shutdown(sctx)
	}()
	if _, err := relay.Arm(ctx, pool); err != nil {
		return err
	}
	if err := awaitDelivered(ctx, ledger, o.Deliveries); err != nil {
		return err
	}
	elapsed := time.Since(start)
	proc1, db1 := cpu.Read(ctx)
	var runs int
	if err := pool.QueryRow(ctx, `select count(*) from pipe.jobs where name = $1`, stagedJob).Scan(&runs); err != nil {
		return err
	}
	if runs > 0 {
		return fmt.Errorf("%d staged deliveries failed their staged attempt and became runs", runs)
	}
	r.StagedPerSec = float64(o.Deliveries) / elapsed.Seconds()
	r.StagedCPUUs, r.StagedDBCPUUs = perItemUs(proc1-proc0, o.Deliveries), perItemUs(db1-db0, o.Deliveries)
	return nil
}

// stageAll stages n deliveries, outbox.StageChunk a statement.
func stageAll(ctx context.Context, pool *pgxpool.Pool, s *webhook.Staged[delivery], n int) error {
	ins := make([]delivery, 0, outbox.StageChunk)
	for lo := 0; lo < n; lo += outbox.StageChunk {
		ins = ins[:0]
		for i := lo; i < min(n, lo+outbox.StageChunk); i++ {
			ins = append(ins, delivery{N: i})
		}
		if err := s.Stage(ctx, pool, ins...); err != nil {
			return err
		}
	}
	_, err := pool.Exec(ctx, `analyze pipe.outbox`)
	return err
}

// countingLedger counts the delivered attempts its ledger committed: the
// bench waits on it rather than on a count of the ledger's table, which
// would cost the database the figure measures.
type countingLedger struct {
	*webhook.PGLedger
	delivered atomic.Int64
}

func (c *countingLedger) Record(ctx context.Context, a webhook.Attempt) error {
	err := c.PGLedger.Record(ctx, a)
	if err == nil && a.Outcome == webhook.Delivered {
		c.delivered.Add(1)
	}
	return err
}

// awaitDelivered waits until the ledger has committed n delivered
// attempts.
func awaitDelivered(ctx context.Context, l *countingLedger, n int) error {
	deadline := time.Now().Add(10 * time.Minute)
	for l.delivered.Load() < int64(n) {
		if time.Now().After(deadline) {
			return fmt.Errorf("%d of %d staged deliveries delivered after 10 minutes", l.delivered.Load(), n)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Millisecond):
		}
	}
	return nil
}

// cleanStaged removes the staged figure's outbox rows, relay state, runs
// and ledger rows.
func cleanStaged(pool *pgxpool.Pool) {
	ctx := context.Background()
	_, _ = pool.Exec(ctx, `delete from pipe.outbox where stream = $1`, stagedJob)
	_, _ = pool.Exec(ctx, `delete from pipe.outbox_batches where stream = $1`, stagedJob)
	_, _ = pool.Exec(ctx, `delete from pipe.consumer_cursors where consumer = $1`, stagedJob+".relay")
	_, _ = pool.Exec(ctx, `delete from pipe.jobs where name like $1`, stagedJob+".relay%") // its runner, arming and pruning
	clean(pool, stagedJob)
	_, _ = pool.Exec(ctx, `vacuum pipe.outbox`)
}
