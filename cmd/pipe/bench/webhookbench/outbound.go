package webhookbench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/cmd/pipe/bench/benchcpu"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/webhook"
)

const outboundJob = "pipe.bench.webhooks.out"

// delivery is the bench webhook's input.
type delivery struct {
	N int `json:"n"`
}

var eventBody = []byte(`{"type":"orders.paid","order":{"id":"o-1001","total":4200,"currency":"EUR"}}`)

// outbound measures the anchor's POSTs a second, then pipe's deliveries a
// second, to the same local server at the same concurrency, and what each
// costs the machine's CPU.
func outbound(ctx context.Context, pool *pgxpool.Pool, o Options, r *Result) error {
	url, stop, err := server(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusNoContent)
	}))
	if err != nil {
		return err
	}
	defer stop()
	c := client(o.Concurrency)
	before := benchcpu.Process()
	r.OutboundAnchor, err = loop(o.Deliveries, o.Concurrency, func(int) error {
		resp, err := c.Post(url, "application/json", bytes.NewReader(eventBody))
		if err != nil {
			return err
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		return resp.Body.Close()
	})
	if err != nil {
		return err
	}
	r.AnchorCPUUs = perItemUs(benchcpu.Process()-before, o.Deliveries)
	if r.OutboundPerSec, err = deliverAll(ctx, pool, o, url, r); err != nil {
		return err
	}
	return staged(ctx, pool, o, url, r)
}

// benchWebhook answers the bench webhooks' options: delivery n to endpoint
// n%10 of store, its Health on, the event's body eventBody, signed,
// recorded in ledger, conns at once (0: the default), runs on queue.
func benchWebhook(store *webhook.Store, ledger webhook.Ledger, queue string, conns int) webhook.Options[delivery] {
	return webhook.Options[delivery]{
		Endpoint: func(ctx context.Context, d delivery) (webhook.Endpoint, error) {
			return store.Endpoint(ctx, endpointID(d.N))
		},
		Health: store,
		Event: func(_ context.Context, d delivery) (webhook.Event, error) {
			return webhook.Event{ID: "evt-" + strconv.Itoa(d.N), Topic: "orders.paid", Body: eventBody}, nil
		},
		Ledger: ledger, AllowHTTP: true, AllowPrivate: true, MaxConnsPerHost: conns,
		Job: pipeline.JobOptions[delivery, webhook.Result]{Queue: queue},
	}
}

// deliveryKey is the bench webhooks' idempotency key: the delivery's number.
func deliveryKey(d delivery) string { return strconv.Itoa(d.N) }

// endpointID answers the endpoint delivery n goes to.
func endpointID(n int) string { return outboundJob + "." + strconv.Itoa(n%benchEndpoints) }

// benchStore adds the bench's endpoints to the stock store, all at url.
func benchStore(ctx context.Context, pool *pgxpool.Pool, url string) (*webhook.Store, error) {
	dropEndpoints(pool)
	store := webhook.NewStore(pool)
	for i := range benchEndpoints {
		if _, err := store.Add(ctx, endpointID(i), url, true, true); err != nil {
			return nil, err
		}
	}
	return store, nil
}

func dropEndpoints(pool *pgxpool.Pool) {
	_, _ = pool.Exec(context.Background(), `delete from pipe.webhook_endpoints where id like $1`, outboundJob+".%")
}

// perItemUs answers ns spent over n items as µs an item.
func perItemUs(ns int64, n int) float64 { return float64(ns) / float64(n) / 1e3 }

// benchEndpoints is how many endpoints of the stock store the deliveries
// go to, in turn.
const benchEndpoints = 10

// deliverAll times a worker of Concurrency slots delivering Deliveries
// events to benchEndpoints endpoints of the stock endpoint store (read by
// every attempt, its Health on), signed, the ledger on.
func deliverAll(ctx context.Context, pool *pgxpool.Pool, o Options, url string, r *Result) (float64, error) {
	store, err := benchStore(ctx, pool, url)
	if err != nil {
		return 0, err
	}
	defer dropEndpoints(pool)
	ledger := webhook.PostgresLedger(pool)
	defer ledger.Close()
	job, err := webhook.New(outboundJob, deliveryKey, benchWebhook(store, ledger, outboundJob, o.Concurrency))
	if err != nil {
		return 0, err
	}
	w, err := workDown(ctx, pool, o, job)
	r.OutboundCPUUs, r.OutboundDBCPUUs, r.DBCPUKnown = w.processUs, w.databaseUs, w.databaseKnown
	return w.perSec, err
}

// workedDown is one work-down's speed and CPU time a run.
type workedDown struct {
	perSec                float64
	processUs, databaseUs float64
	databaseKnown         bool
}

// workDown enqueues Deliveries runs of job (queued on the job's own name),
// then times a worker of Concurrency slots working them all down, and
// what each run costs the machine's CPU.
func workDown[Out any](ctx context.Context, pool *pgxpool.Pool, o Options, job *pipeline.Job[delivery, Out]) (workedDown, error) {
	name := job.Name()
	clean(pool, name)
	defer clean(pool, name)
	ins := make([]delivery, o.Deliveries)
	for i := range ins {
		ins[i] = delivery{N: i}
	}
	for lo := 0; lo < len(ins); lo += pipeline.MaxEnqueueBatch {
		if _, err := job.EnqueueMany(ctx, pool, ins[lo:min(lo+pipeline.MaxEnqueueBatch, len(ins))]); err != nil {
			return workedDown{}, err
		}
	}
	reg, err := pipeline.NewRegistry(job)
	if err != nil {
		return workedDown{}, err
	}
	w, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg, Queues: map[string]int{name: o.Concurrency},
		Logger: o.Logger})
	if err != nil {
		return workedDown{}, err
	}
	cpu := benchcpu.NewMeter(pool)
	proc0, db0 := cpu.Read(ctx)
	start := time.Now()
	if err := w.Start(ctx); err != nil {
		return workedDown{}, err
	}
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = w.Shutdown(sctx)
	}()
	if err := awaitDone(ctx, pool, w, name, o.Deliveries); err != nil {
		return workedDown{}, err
	}
	elapsed := time.Since(start)
	proc1, db1 := cpu.Read(ctx)
	return workedDown{
		perSec:    float64(o.Deliveries) / elapsed.Seconds(),
		processUs: perItemUs(proc1-proc0, o.Deliveries), databaseUs: perItemUs(db1-db0, o.Deliveries), databaseKnown: cpu.Known(),
	}, nil
}

// awaitDone waits until the worker has completed n runs, reading its
// counters (a poll of the database would cost the deliveries it times),
// then checks in the database that every run of name is done; a run dead
// or failed is an error.
func awaitDone(ctx context.Context, pool *pgxpool.Pool, w *pipeline.Worker, name string, n int) error {
	deadline := time.Now().Add(10 * time.Minute)
	st := w.Stats()
	for st.Completed.Load() < int64(n) {
		if bad := st.DeadLettered.Load() + st.Failed.Load(); bad > 0 {
			return fmt.Errorf("%d deliveries failed", bad)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d of %d deliveries done after 10 minutes", st.Completed.Load(), n)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Millisecond):
		}
	}
	var open int
	if err := pool.QueryRow(ctx, `select count(*) from pipe.jobs where name = $1 and state <> 'done'`, name).Scan(&open); err != nil {
		return err
	}
	if open > 0 {
		return fmt.Errorf("%d deliveries not done after the worker counted %d completed", open, n)
	}
	return nil
}

// clean removes the bench's runs and ledger rows, then vacuums their
// tables.
func clean(pool *pgxpool.Pool, name string) {
	ctx := context.Background()
	_, _ = pool.Exec(ctx, `delete from pipe.jobs where name = $1`, name)
	_, _ = pool.Exec(ctx, `delete from pipe.webhook_deliveries where job = $1`, name)
	// as autovacuum would between two figures: a server with it off would
	// hand the next figure this one's dead rows
	_, _ = pool.Exec(ctx, `vacuum pipe.runs, pipe.run_events, pipe.webhook_deliveries, pipe.job_counters`)
}
