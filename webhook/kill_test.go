package webhook_test

import (
	"context"
	"log/slog"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/webhook"
)

const killURLEnv = "PIPE_WEBHOOK_KILL_URL"

// killJob is the kill test's webhook, declared alike in the parent and in
// the child worker it kills: it delivers to the URL the environment names.
func killJob(url string) *pipeline.Job[delivery, webhook.Result] {
	ep, ev := fixed(url, "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
	return webhook.MustNew("kill.webhooks", deliveryKey, webhook.Options[delivery]{Endpoint: ep, Event: ev, AllowHTTP: true, AllowPrivate: true})
}

// TestMain doubles as the kill test's worker process: re-executed with
// fixtures.StartChild, the test binary runs a worker over killJob until it
// is SIGKILLed.
func TestMain(m *testing.M) {
	fixtures.ChildMain(map[string]fixtures.ChildFunc{"deliverer": func(ctx context.Context, pool *pgxpool.Pool) error {
		reg, err := pipeline.NewRegistry(killJob(os.Getenv(killURLEnv)))
		if err != nil {
			return err
		}
		w, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg, Lease: 2 * time.Second,
			PollInterval: 10 * time.Millisecond, IdlePollMax: 50 * time.Millisecond, Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			return err
		}
		if err := w.Start(ctx); err != nil {
			return err
		}
		select {} // until SIGKILL
	}})
	os.Exit(m.Run())
}

// A worker SIGKILLed while its delivery is in flight (the endpoint holds
// the request) never settles the run; another worker takes it over when
// the lease lapses and delivers again under the same webhook-id, signed
// afresh, so the receiver can dedupe.
func TestAWorkerKilledMidDeliveryRedeliversTheSameWebhookID(t *testing.T) {
	url := fixtures.DBURL(t)
	pool, err := pgxpool.New(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	ctx := context.Background()
	e := newEndpoint(t, false, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 1 {
			<-r.Context().Done() // held until the killed worker's connection drops
		}
	})
	job := killJob(e.srv.URL)
	child := fixtures.StartChild(t, url, "deliverer", killURLEnv+"="+e.srv.URL)
	res, err := job.Enqueue(ctx, pool, delivery{Endpoint: "acme", Event: "evt_kill"})
	if err != nil {
		t.Fatal(err)
	}
	e.await(t, 1)
	child.Kill(t)
	startWorker(t, pool, job)
	d := awaitState(t, pool, res.ID, pipeline.StateDone)
	hits := e.await(t, 2)
	if len(hits) != 2 || hits[0].header.Get("webhook-id") != "evt_kill" || hits[1].header.Get("webhook-id") != "evt_kill" {
		t.Fatalf("%d requests, ids %q and %q: want two under evt_kill", len(hits), hits[0].header.Get("webhook-id"), hits[len(hits)-1].header.Get("webhook-id"))
	}
	if err := webhook.VerifyStandard(hits[1].header, hits[1].body, "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"); err != nil {
		t.Fatalf("the redelivery does not verify: %v", err)
	}
	if d.Attempt < 2 {
		t.Fatalf("the run settled at attempt %d: the killed attempt was not counted", d.Attempt)
	}
}
