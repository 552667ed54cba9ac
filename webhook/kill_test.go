package webhook_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/outbox"
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
	fixtures.ChildMain(map[string]fixtures.ChildFunc{"staged": stagedChild, "deliverer": func(ctx context.Context, pool *pgxpool.Pool) error {
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
	url, pool := killDB(t)
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

// The staged kill test's webhook, declared alike in the test and in its
// relay processes: deliveries of the environment's name to its URL, the
// stock ledger on.
func killStaged(pool *pgxpool.Pool, name, url string) (*webhook.Staged[delivery], *outbox.Relay, *webhook.PGLedger) {
	ep, ev := fixed(url, "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
	ledger := webhook.PostgresLedger(pool)
	s, err := webhook.NewStaged(name, deliveryKey, pool, webhook.Options[delivery]{Endpoint: ep, Event: ev, Ledger: ledger,
		AllowHTTP: true, AllowPrivate: true})
	if err != nil {
		panic(err)
	}
	return s, outbox.MustNew(outbox.Options{Name: name + ".relay", Streams: []outbox.Stream{s.Stream()}, Batch: 100}), ledger
}

const killNameEnv = "PIPE_WEBHOOK_KILL_NAME"

func stagedChild(ctx context.Context, pool *pgxpool.Pool) error {
	s, relay, _ := killStaged(pool, os.Getenv(killNameEnv), os.Getenv(killURLEnv))
	return fixtures.WorkUntilKilled(ctx, pool, append(relay.Jobs(), s.Job())...)
}

// A relay SIGKILLed while a batch of staged deliveries is in flight loses
// none: the next relay posts the batch again, each delivery under its own
// webhook-id, so every event reaches the endpoint at least once and the
// receiver can dedupe the batch it saw twice; every event ends with a
// delivered row in the ledger, and none became a run.
func TestARelayKilledMidBatchRedeliversItsStagedDeliveries(t *testing.T) {
	url, pool := killDB(t)
	ctx := context.Background()
	var held atomic.Bool
	e := newEndpoint(t, false, func(n int, w http.ResponseWriter, r *http.Request) {
		if n > 150 && held.Load() {
			<-r.Context().Done() // held until the killed relay's connection drops
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	held.Store(true)
	name := "kill.staged"
	s, relay, ledger := killStaged(pool, name, e.srv.URL)
	t.Cleanup(ledger.Close)
	var ins []delivery
	for i := range 300 {
		ins = append(ins, delivery{Endpoint: "acme", Event: fmt.Sprintf("evt-%d", i)})
	}
	if err := s.Stage(ctx, pool, ins...); err != nil {
		t.Fatal(err)
	}
	if _, err := relay.Arm(ctx, pool); err != nil {
		t.Fatal(err)
	}
	env := []string{killURLEnv + "=" + e.srv.URL, killNameEnv + "=" + name}
	first := fixtures.StartChild(t, url, "staged", env...)
	e.await(t, 160) // the second batch in flight, its later deliveries held
	first.Kill(t)
	held.Store(false)
	fixtures.StartChild(t, url, "staged", env...)
	delivered := func() map[string]bool {
		got := map[string]bool{}
		as, err := ledger.List(ctx, webhook.Filter{Limit: 10000})
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range as {
			if a.Job == name && a.Outcome == webhook.Delivered {
				got[a.EventID] = true
			}
		}
		return got
	}
	deadline := time.Now().Add(60 * time.Second)
	for len(delivered()) < 300 {
		if time.Now().After(deadline) {
			t.Fatalf("%d of 300 staged deliveries recorded delivered after the relay's kill", len(delivered()))
		}
		time.Sleep(50 * time.Millisecond)
	}
	seen := map[string]int{}
	for _, h := range e.got() {
		seen[h.header.Get("webhook-id")]++
	}
	twice := 0
	for i := range 300 {
		switch n := seen[fmt.Sprintf("evt-%d", i)]; {
		case n == 0:
			t.Fatalf("event evt-%d never reached the endpoint", i)
		case n > 1:
			twice++
		}
	}
	if twice == 0 {
		t.Fatal("no event was posted twice: the kill did not come mid-batch")
	}
	var runs int
	if err := pool.QueryRow(ctx, `select count(*) from pipe.jobs where name = $1`, name).Scan(&runs); err != nil {
		t.Fatal(err)
	}
	if runs != 0 {
		t.Fatalf("%d staged deliveries became runs; the endpoint took every one (the ledger's attempts not delivered: %s)", runs, undelivered(t, ledger, name))
	}
}

// undelivered summarises a job's ledger rows that are not delivered: how
// many of each outcome, status and code, for a failure's message.
func undelivered(t *testing.T, ledger *webhook.PGLedger, name string) string {
	as, err := ledger.List(context.Background(), webhook.Filter{Limit: 10000})
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, a := range as {
		if a.Job == name && a.Outcome != webhook.Delivered {
			n[fmt.Sprintf("%s/%d/%s after %d ms", a.Outcome, a.Status, a.Code, a.DurationMs)]++
		}
	}
	return fmt.Sprint(n)
}

// killDB answers a database of the kill test's own, for its child
// processes, and a pool over it.
func killDB(t *testing.T) (string, *pgxpool.Pool) {
	t.Helper()
	url := fixtures.DBURL(t)
	pool, err := pgxpool.New(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return url, pool
}
