package webhook_test

import (
	"context"
	"strings"
	"testing"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/webhook"
)

// A real server on loopback is never reached without AllowPrivate, however
// its address is written: by a name that resolves to it (refused at dial
// time, so DNS rebinding cannot pass), as a decimal number, IPv4-mapped
// IPv6, or over plain http without AllowHTTP. Each run is refused
// X_WEBHOOK_ENDPOINT_INVALID at attempt 1, and the server gets nothing.
func TestDeliveriesNeverReachAPrivateAddress(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := context.Background()
	e := newEndpoint(t, false, nil)
	port := strings.TrimPrefix(e.srv.URL, "http://127.0.0.1:")
	urls := map[string]string{
		"name":    "http://localhost:" + port + "/",
		"decimal": "http://2130706433:" + port + "/",
		"hex":     "http://0x7f000001:" + port + "/",
		"mapped":  "http://[::ffff:127.0.0.1]:" + port + "/",
		"literal": e.srv.URL,
	}
	job := webhook.MustNew("ssrf", deliveryKey, webhook.Options[delivery]{
		Endpoint: func(_ context.Context, d delivery) (webhook.Endpoint, error) {
			return webhook.Endpoint{ID: d.Endpoint, URL: urls[d.Endpoint], Secrets: []string{"s"}}, nil
		},
		Event: func(_ context.Context, d delivery) (webhook.Event, error) {
			return webhook.Event{ID: d.Event, Body: []byte(`{}`)}, nil
		},
		AllowHTTP: true,
	})
	https := webhook.MustNew("ssrf-https", deliveryKey, webhook.Options[delivery]{
		Endpoint: func(_ context.Context, d delivery) (webhook.Endpoint, error) {
			return webhook.Endpoint{ID: d.Endpoint, URL: e.srv.URL, Secrets: []string{"s"}}, nil
		},
		Event: func(_ context.Context, d delivery) (webhook.Event, error) {
			return webhook.Event{ID: d.Event, Body: []byte(`{}`)}, nil
		},
		AllowPrivate: true,
	})
	startWorker(t, pool, job, https)
	var ids []string
	for name := range urls {
		res, err := job.Enqueue(ctx, pool, delivery{Endpoint: name, Event: "e"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.ID)
	}
	res, err := https.Enqueue(ctx, pool, delivery{Endpoint: "plain-http", Event: "e"})
	if err != nil {
		t.Fatal(err)
	}
	ids = append(ids, res.ID)
	for _, id := range ids {
		d := awaitState(t, pool, id, pipeline.StateDead, pipeline.StateDone)
		if d.State != pipeline.StateDead || d.Attempt != 1 || d.LastError.Code != string(errcode.WebhookEndpointInvalid) {
			t.Errorf("run of %s: %s after %d attempts, %+v", d.Input, d.State, d.Attempt, d.LastError)
		}
		if strings.Contains(d.LastError.Message, port) {
			t.Errorf("the refusal quotes the URL: %s", d.LastError.Message)
		}
	}
	if n := len(e.got()); n != 0 {
		t.Fatalf("the loopback server got %d requests", n)
	}
}
