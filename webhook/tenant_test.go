package webhook_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/webhook"
)

// orgDelivery is a delivery of an org's event to the org's endpoint.
type orgDelivery struct {
	Org   string `json:"org"`
	Event string `json:"event"`
}

func orgKey(d orgDelivery) string { return d.Event }

// A webhook whose Tenant reads the org, end to end: a delivery runs as its
// org and reaches the org's endpoint; the same key for two orgs is two
// runs; a delivery naming no org, or enqueued as another org, is refused
// X_JOB_TENANT_MISMATCH before anything is queued; a row queued before the
// webhook had a Tenant is dead-lettered on its first attempt, unsent; and a
// staged webhook stages no delivery naming no org.
func TestATenantedWebhookDeliversAsItsTenantAndRefusesNone(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := context.Background()
	e := newEndpoint(t, false, nil)
	ledger := webhook.PostgresLedger(pool)
	t.Cleanup(ledger.Close)
	opts := func(tenant func(orgDelivery) string) webhook.Options[orgDelivery] {
		return webhook.Options[orgDelivery]{
			Endpoint: func(_ context.Context, d orgDelivery) (webhook.Endpoint, error) {
				return webhook.Endpoint{ID: "ep-" + d.Org, URL: e.srv.URL + "/" + d.Org, Secrets: []string{webhook.NewSecret()}}, nil
			},
			Event: func(_ context.Context, d orgDelivery) (webhook.Event, error) {
				return webhook.Event{ID: d.Event, Body: []byte(`{"org":"` + d.Org + `"}`)}, nil
			},
			AllowHTTP: true, AllowPrivate: true, Ledger: ledger,
			Job: pipeline.JobOptions[orgDelivery, webhook.Result]{Tenant: tenant, Retry: &pipeline.Retry{Attempts: 3}},
		}
	}
	job := webhook.MustNew("orgs.paid", orgKey, opts(func(d orgDelivery) string { return d.Org }))
	startWorker(t, pool, job)

	a, err := job.Enqueue(ctx, pool, orgDelivery{Org: "a", Event: "e-1"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := job.Enqueue(ctx, pool, orgDelivery{Org: "b", Event: "e-1"})
	if err != nil || b.ID == a.ID {
		t.Fatalf("the same key for another org: %+v (%v); want a run of its own", b, err)
	}
	for org, id := range map[string]string{"a": a.ID, "b": b.ID} {
		if d := awaitState(t, pool, id, pipeline.StateDone); d.Tenant != org {
			t.Fatalf("org %s's delivery ran as tenant %q", org, d.Tenant)
		}
	}
	paths := map[string]bool{}
	for _, h := range e.await(t, 2) {
		paths[string(h.body)] = true
	}
	if !paths[`{"org":"a"}`] || !paths[`{"org":"b"}`] {
		t.Fatalf("the endpoints got %v", paths)
	}

	before := countRuns(t, pool, "orgs.paid")
	if _, err := job.Enqueue(ctx, pool, orgDelivery{Event: "e-2"}); errcode.CodeOf(err) != errcode.JobTenantMismatch {
		t.Fatalf("a delivery naming no org: %v; want X_JOB_TENANT_MISMATCH", err)
	}
	if _, err := job.Enqueue(pipeline.WithTenant(ctx, "b"), pool, orgDelivery{Org: "a", Event: "e-3"}); errcode.CodeOf(err) != errcode.JobTenantMismatch {
		t.Fatalf("org a's delivery enqueued as org b: %v; want X_JOB_TENANT_MISMATCH", err)
	}
	if n := countRuns(t, pool, "orgs.paid"); n != before {
		t.Fatalf("%d runs queued by refused enqueues", n-before)
	}

	// a row queued before the webhook read a tenant (the same name, declared
	// without one): the worker's declaration refuses it on attempt 1, unsent
	old := webhook.MustNew("orgs.paid", orgKey, opts(nil))
	legacy, err := old.Enqueue(ctx, pool, orgDelivery{Event: "e-4"})
	if err != nil {
		t.Fatal(err)
	}
	d := awaitState(t, pool, legacy.ID, pipeline.StateDead)
	if errcode.Code(d.LastError.Code) != errcode.JobTenantMismatch || d.Attempt != 1 {
		t.Fatalf("a queued delivery naming no org: %+v after %d attempts; want X_JOB_TENANT_MISMATCH on attempt 1", d.LastError, d.Attempt)
	}
	if n := len(e.got()); n != 2 {
		t.Fatalf("the endpoints got %d requests; want the 2 delivered", n)
	}

	name := "orgs.staged." + fmt.Sprint(time.Now().UnixNano())
	s := webhook.MustStaged(name, orgKey, pool, opts(func(d orgDelivery) string { return d.Org }))
	err = s.Stage(ctx, pool, orgDelivery{Org: "a", Event: "s-1"}, orgDelivery{Event: "s-secret-2"})
	if errcode.CodeOf(err) != errcode.JobTenantMismatch || strings.Contains(err.Error(), "s-secret-2") {
		t.Fatalf("staging a delivery naming no org: %v; want X_JOB_TENANT_MISMATCH naming no input", err)
	}
	var staged int
	if err := pool.QueryRow(ctx, `select count(*) from pipe.outbox where stream = $1`, name).Scan(&staged); err != nil || staged != 0 {
		t.Fatalf("%d deliveries staged by a refused call (%v); want none", staged, err)
	}
}
