package webhook_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/webhook"
)

func tlsTo(e *endpoint) *tls.Config {
	roots := x509.NewCertPool()
	roots.AddCert(e.srv.Certificate())
	return &tls.Config{RootCAs: roots}
}

// A delivery over TLS carries one Standard Webhooks signature per secret
// during a rotation; the Standard Webhooks project's own library verifies
// it with either secret, and the ledger records the attempt without the
// body.
func TestADeliveryVerifiesWithTheStandardWebhooksLibrary(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := context.Background()
	newSecret, oldSecret := webhook.NewSecret(), webhook.NewSecret()
	e := newEndpoint(t, true, nil)
	ep, ev := fixed(e.srv.URL, newSecret, oldSecret)
	job := webhook.MustNew("partner.webhooks", deliveryKey, webhook.Options[delivery]{
		Endpoint: ep, Event: ev, AllowPrivate: true, TLS: tlsTo(e), Ledger: webhook.PostgresLedger(pool)})
	startWorker(t, pool, job)
	res, err := job.Enqueue(ctx, pool, delivery{Endpoint: "acme", Event: "evt_1"})
	if err != nil {
		t.Fatal(err)
	}
	d := awaitState(t, pool, res.ID, pipeline.StateDone)
	h := e.got()[0]
	if h.header.Get("webhook-id") != "evt_1" || len(strings.Fields(h.header.Get("webhook-signature"))) != 2 {
		t.Fatalf("headers %v: want webhook-id evt_1 and two signatures", h.header)
	}
	for _, s := range []string{newSecret, oldSecret} {
		wh, err := standardwebhooks.NewWebhook(s)
		if err != nil {
			t.Fatal(err)
		}
		if err := wh.Verify(h.body, h.header); err != nil {
			t.Fatalf("the Standard Webhooks library refused pipe's signature: %v", err)
		}
	}
	var r webhook.Result
	if err := json.Unmarshal(d.Result, &r); err != nil || r.Status != 200 || r.EventID != "evt_1" || r.EndpointID != "acme" {
		t.Fatalf("result %s", d.Result)
	}
	rows, err := webhook.PostgresLedger(pool).List(ctx, webhook.Filter{EventID: "evt_1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].Outcome != webhook.Delivered || rows[0].Status != 200 || rows[0].EndpointID != "acme" || rows[0].Bytes != int64(len(h.body)) {
		t.Fatalf("ledger %+v", rows)
	}
}

// 2xx delivers; 5xx and an unreachable endpoint fail and are retried; a
// 4xx or a redirect (never followed) is rejected, terminal at attempt 1.
func TestOutcomesFollowTheStatus(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := context.Background()
	var redirected, flaky atomic.Int32
	target := newEndpoint(t, false, func(int, http.ResponseWriter, *http.Request) { redirected.Add(1) })
	e := newEndpoint(t, false, func(_ int, w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/flaky") && flaky.Add(1) == 1:
			w.WriteHeader(http.StatusBadGateway)
		case strings.HasSuffix(r.URL.Path, "/gone"):
			w.WriteHeader(http.StatusGone)
		case strings.HasSuffix(r.URL.Path, "/moved"):
			http.Redirect(w, r, target.srv.URL, http.StatusFound)
		}
	})
	down := newEndpoint(t, false, nil)
	down.srv.Close()
	urls := map[string]string{"flaky": e.srv.URL + "/flaky", "gone": e.srv.URL + "/gone", "moved": e.srv.URL + "/moved", "down": down.srv.URL}
	job := webhook.MustNew("outcomes", deliveryKey, webhook.Options[delivery]{
		Endpoint: func(_ context.Context, d delivery) (webhook.Endpoint, error) {
			return webhook.Endpoint{ID: d.Endpoint, URL: urls[d.Endpoint], Secrets: []string{"s3cret"}}, nil
		},
		Event: func(_ context.Context, d delivery) (webhook.Event, error) {
			return webhook.Event{ID: d.Event, Body: []byte(`{}`)}, nil
		},
		AllowHTTP: true, AllowPrivate: true, Ledger: webhook.PostgresLedger(pool),
		Job: pipeline.JobOptions[delivery, webhook.Result]{Retry: &pipeline.Retry{Attempts: 2, Delay: time.Millisecond, NoJitter: true}},
	})
	startWorker(t, pool, job)
	want := map[string]struct {
		state    pipeline.State
		attempts int
		code     errcode.Code
	}{
		"flaky": {pipeline.StateDone, 2, ""},
		"gone":  {pipeline.StateDead, 1, errcode.WebhookDeliveryRejected},
		"moved": {pipeline.StateDead, 1, errcode.WebhookDeliveryRejected},
		"down":  {pipeline.StateDead, 2, errcode.WebhookDeliveryFailed},
	}
	for name, w := range want {
		res, err := job.Enqueue(ctx, pool, delivery{Endpoint: name, Event: "evt"})
		if err != nil {
			t.Fatal(err)
		}
		d := awaitState(t, pool, res.ID, pipeline.StateDone, pipeline.StateDead)
		var code errcode.Code
		if d.LastError != nil {
			code = errcode.Code(d.LastError.Code)
		}
		if d.State != w.state || d.Attempt != w.attempts || (w.code != "" && code != w.code) {
			t.Errorf("%s: %s after %d attempts (%s), want %s after %d (%s)", name, d.State, d.Attempt, code, w.state, w.attempts, w.code)
		}
	}
	if redirected.Load() != 0 {
		t.Fatal("a redirect was followed")
	}
}

// A 503 with Retry-After is throttled: the retry waits it out though the
// backoff is a millisecond; a Retry-After of an hour is clamped by the
// job's MaxDelay.
func TestRetryAfterIsHonouredAndClamped(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := context.Background()
	e := newEndpoint(t, false, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 1 || n == 3 {
			w.Header().Set("Retry-After", map[int]string{1: "2", 3: "3600"}[n])
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	})
	ep, ev := fixed(e.srv.URL, "s3cret")
	job := webhook.MustNew("throttled", deliveryKey, webhook.Options[delivery]{Endpoint: ep, Event: ev, AllowHTTP: true, AllowPrivate: true,
		Ledger: webhook.PostgresLedger(pool),
		Job:    pipeline.JobOptions[delivery, webhook.Result]{Retry: &pipeline.Retry{Attempts: 3, Backoff: pipeline.Fixed, Delay: time.Millisecond, MaxDelay: 3 * time.Second, NoJitter: true}}})
	startWorker(t, pool, job)
	first, err := job.Enqueue(ctx, pool, delivery{Endpoint: "a", Event: "e1"})
	if err != nil {
		t.Fatal(err)
	}
	awaitState(t, pool, first.ID, pipeline.StateDone)
	hits := e.got()
	if gap := hits[1].at.Sub(hits[0].at); gap < 2*time.Second {
		t.Fatalf("the retry came %v after a Retry-After of 2s", gap)
	}
	second, err := job.Enqueue(ctx, pool, delivery{Endpoint: "a", Event: "e2"})
	if err != nil {
		t.Fatal(err)
	}
	awaitState(t, pool, second.ID, pipeline.StateDone) // within the test's 30s, not the hour asked
	rows, err := webhook.PostgresLedger(pool).List(ctx, webhook.Filter{EventID: "e2"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[1].Outcome != webhook.Throttled || rows[1].Code != errcode.WebhookDeliveryThrottled || rows[1].Status != 503 {
		t.Fatalf("ledger %+v: want a throttled attempt, then a delivered one", rows)
	}
}

// An endpoint that answers a body of 64 MiB is read to at most 64 KiB and
// left: the attempt still delivers.
func TestTheResponseBodyIsReadToAtMost64KiB(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := context.Background()
	var written atomic.Int64
	e := newEndpoint(t, false, func(_ int, w http.ResponseWriter, _ *http.Request) {
		chunk := make([]byte, 32<<10)
		for range 2048 {
			n, err := w.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	})
	ep, ev := fixed(e.srv.URL, "s3cret")
	job := webhook.MustNew("big-answer", deliveryKey, webhook.Options[delivery]{Endpoint: ep, Event: ev, AllowHTTP: true, AllowPrivate: true})
	startWorker(t, pool, job)
	res, err := job.Enqueue(ctx, pool, delivery{Endpoint: "a", Event: "e"})
	if err != nil {
		t.Fatal(err)
	}
	awaitState(t, pool, res.ID, pipeline.StateDone)
	e.srv.Close() // waits for the handler, which stops when the client hangs up
	if n := written.Load(); n >= 64<<20 {
		t.Fatalf("the client read the whole %d-byte answer", n)
	}
}

// The endpoint is read by every attempt: a secret rotated between two
// attempts signs the second, and an endpoint disabled meanwhile refuses
// the next run with X_WEBHOOK_ENDPOINT_DISABLED, nothing sent.
func TestTheEndpointIsReadByEveryAttempt(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := context.Background()
	store := webhook.NewStore(pool)
	e := newEndpoint(t, false, func(n int, w http.ResponseWriter, _ *http.Request) {
		if n == 1 {
			w.WriteHeader(http.StatusInternalServerError)
		}
	})
	if _, err := store.Add(ctx, "acme", e.srv.URL, true, true); err != nil {
		t.Fatal(err)
	}
	old, _ := store.Get(ctx, "acme")
	job := webhook.MustNew("per-attempt", deliveryKey, webhook.Options[delivery]{
		Endpoint: func(ctx context.Context, d delivery) (webhook.Endpoint, error) {
			return store.Endpoint(ctx, d.Endpoint)
		},
		Event: func(_ context.Context, d delivery) (webhook.Event, error) {
			return webhook.Event{ID: d.Event, Body: []byte(`{}`)}, nil
		},
		Health: store, AllowHTTP: true, AllowPrivate: true,
		Job: pipeline.JobOptions[delivery, webhook.Result]{Retry: &pipeline.Retry{Attempts: 3, Delay: 500 * time.Millisecond, NoJitter: true, Backoff: pipeline.Fixed}},
	})
	startWorker(t, pool, job)
	res, err := job.Enqueue(ctx, pool, delivery{Endpoint: "acme", Event: "e1"})
	if err != nil {
		t.Fatal(err)
	}
	e.await(t, 1)
	s, err := store.RotateSecret(ctx, "acme")
	if err != nil {
		t.Fatal(err)
	}
	awaitState(t, pool, res.ID, pipeline.StateDone)
	hits := e.got()
	if err := webhook.VerifyStandard(hits[0].header, hits[0].body, s); err == nil {
		t.Fatal("the first attempt verifies with a secret made after it")
	}
	for _, secret := range []string{s, old.Secrets[0]} { // the new secret, and the old kept beside it
		if err := webhook.VerifyStandard(hits[1].header, hits[1].body, secret); err != nil {
			t.Fatalf("the second attempt does not verify after the rotation: %v", err)
		}
	}
	if err := store.SetEnabled(ctx, "acme", false); err != nil {
		t.Fatal(err)
	}
	next, err := job.Enqueue(ctx, pool, delivery{Endpoint: "acme", Event: "e2"})
	if err != nil {
		t.Fatal(err)
	}
	d := awaitState(t, pool, next.ID, pipeline.StateDead)
	if d.LastError.Code != string(errcode.WebhookEndpointDisabled) || d.Attempt != 1 || len(e.got()) != 2 {
		t.Fatalf("a disabled endpoint: %+v after %d attempts, %d requests", d.LastError, d.Attempt, len(e.got()))
	}
}

// Three runs in a row that fail for good disable the endpoint at
// DisableAfter 3; the fourth is X_WEBHOOK_ENDPOINT_DISABLED, sends nothing,
// and is recorded in the ledger as refused. A delivered run between
// failures resets the count.
func TestAnEndpointIsDisabledAfterNFailedRuns(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := context.Background()
	store := webhook.NewStore(pool)
	ledger := webhook.PostgresLedger(pool)
	t.Cleanup(ledger.Close)
	var ok atomic.Bool
	e := newEndpoint(t, false, func(_ int, w http.ResponseWriter, _ *http.Request) {
		if !ok.Load() {
			w.WriteHeader(http.StatusInternalServerError)
		}
	})
	if _, err := store.Add(ctx, "acme", e.srv.URL, true, true); err != nil {
		t.Fatal(err)
	}
	job := webhook.MustNew("disable", deliveryKey, webhook.Options[delivery]{
		Endpoint: func(ctx context.Context, d delivery) (webhook.Endpoint, error) {
			return store.Endpoint(ctx, d.Endpoint)
		},
		Event: func(_ context.Context, d delivery) (webhook.Event, error) {
			return webhook.Event{ID: d.Event, Body: []byte(`{}`)}, nil
		},
		Health: store, Ledger: ledger, DisableAfter: 3, AllowHTTP: true, AllowPrivate: true,
		Job: pipeline.JobOptions[delivery, webhook.Result]{Retry: &pipeline.Retry{Attempts: 1}},
	})
	startWorker(t, pool, job)
	run := func(event string, want pipeline.State) *pipeline.RunDetail {
		t.Helper()
		res, err := job.Enqueue(ctx, pool, delivery{Endpoint: "acme", Event: event})
		if err != nil {
			t.Fatal(err)
		}
		return awaitState(t, pool, res.ID, want)
	}
	run("f1", pipeline.StateDead)
	run("f2", pipeline.StateDead)
	ok.Store(true)
	run("ok", pipeline.StateDone)
	ok.Store(false)
	for _, ev := range []string{"f3", "f4", "f5"} {
		run(ev, pipeline.StateDead)
	}
	got, _ := store.Get(ctx, "acme")
	if got.Enabled || got.ConsecutiveFailures != 3 {
		t.Fatalf("after 3 failed runs in a row: %+v", got)
	}
	sent := len(e.got())
	d := run("f6", pipeline.StateDead)
	if !errors.Is(errcode.New(errcode.Code(d.LastError.Code), ""), errcode.WebhookEndpointDisabled) || len(e.got()) != sent {
		t.Fatalf("the run after disabling: %+v, %d requests sent", d.LastError, len(e.got())-sent)
	}
	// its attempt is in the ledger, refused, with nothing sent
	rows, err := ledger.List(ctx, webhook.Filter{EventID: "f6"})
	if err != nil || len(rows) != 1 || rows[0].Outcome != webhook.Refused || rows[0].Code != errcode.WebhookEndpointDisabled ||
		rows[0].Status != 0 || rows[0].Attempt != 1 || rows[0].EndpointID != "acme" {
		t.Fatalf("the disabled endpoint's attempt in the ledger: %+v (%v)", rows, err)
	}
}

// An endpoint that never answers is cut before the job's Timeout, which
// bounds the attempt and its request: the attempt fails retryable as the
// delivery's X_WEBHOOK_DELIVERY_FAILED (not the worker's X_JOB_TIMEOUT, as
// the README's table says), recorded in the ledger as failed with no status.
func TestTheJobTimeoutBoundsTheRequest(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := context.Background()
	e := newEndpoint(t, false, func(_ int, _ http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	ep, ev := fixed(e.srv.URL, "s3cret")
	ledger := webhook.PostgresLedger(pool)
	t.Cleanup(ledger.Close)
	job := webhook.MustNew("slow", deliveryKey, webhook.Options[delivery]{Endpoint: ep, Event: ev, AllowHTTP: true, AllowPrivate: true, Ledger: ledger,
		Job: pipeline.JobOptions[delivery, webhook.Result]{Timeout: time.Second, Retry: &pipeline.Retry{Attempts: 1}}})
	startWorker(t, pool, job)
	res, err := job.Enqueue(ctx, pool, delivery{Endpoint: "a", Event: "e"})
	if err != nil {
		t.Fatal(err)
	}
	d := awaitState(t, pool, res.ID, pipeline.StateDead)
	if c := errcode.Code(d.LastError.Code); c != errcode.WebhookDeliveryFailed {
		t.Fatalf("a request past the timeout: %+v, want %s", d.LastError, errcode.WebhookDeliveryFailed)
	}
	rows, err := ledger.List(ctx, webhook.Filter{EventID: "e"})
	if err != nil || len(rows) != 1 || rows[0].Outcome != webhook.Failed || rows[0].Status != 0 || rows[0].Code != errcode.WebhookDeliveryFailed {
		t.Fatalf("ledger %+v (%v)", rows, err)
	}
}
