package webhook_test

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/webhook"
)

// The Standard Webhooks project's own library signs; VerifyStandard
// accepts it with the secret, with the secret second in a rotation list,
// and refuses another secret, a changed body and a stale timestamp.
func TestVerifyStandardAcceptsTheStandardLibrarysSignature(t *testing.T) {
	secret, other := webhook.NewSecret(), webhook.NewSecret()
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatal(err)
	}
	body := []byte(`{"type":"invoice.paid"}`)
	sign := func(at time.Time) http.Header {
		sig, err := wh.Sign("msg_2KWPBgLlAfxdpx2AI54pPJ85f4W", at, body)
		if err != nil {
			t.Fatal(err)
		}
		h := http.Header{}
		h.Set("webhook-id", "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W")
		h.Set("webhook-timestamp", strconv.FormatInt(at.Unix(), 10))
		h.Set("webhook-signature", sig)
		return h
	}
	now := sign(time.Now())
	if err := webhook.VerifyStandard(now, body, secret); err != nil {
		t.Fatalf("refused the library's signature: %v", err)
	}
	if err := webhook.VerifyStandard(now, body, other, secret); err != nil {
		t.Fatalf("refused it with the secret second in the rotation list: %v", err)
	}
	for name, c := range map[string]struct {
		h    http.Header
		body []byte
		sec  []string
		want errcode.Code
	}{
		"another secret":  {now, body, []string{other}, errcode.WebhookSignatureInvalid},
		"a changed body":  {now, []byte(`{"type":"invoice.paid "}`), []string{secret}, errcode.WebhookSignatureInvalid},
		"stale":           {sign(time.Now().Add(-6 * time.Minute)), body, []string{secret}, errcode.WebhookSignatureStale},
		"from the future": {sign(time.Now().Add(6 * time.Minute)), body, []string{secret}, errcode.WebhookSignatureStale},
		"no headers":      {http.Header{}, body, []string{secret}, errcode.WebhookSignatureInvalid},
		"an empty secret": {now, body, []string{secret, ""}, errcode.ConfigInvalid},
		"no secret":       {now, body, nil, errcode.ConfigInvalid},
	} {
		if err := webhook.VerifyStandard(c.h, c.body, c.sec...); errcode.CodeOf(err) != c.want {
			t.Errorf("%s: %v, want %s", name, err, c.want)
		}
	}
}

// The published example of the Standard Webhooks specification: this
// secret, id, timestamp and body sign to this signature, in pipe's Sign as
// in the project's library.
func TestTheStandardWebhooksTestVector(t *testing.T) {
	const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	body := []byte(`{"test": 2432232314}`)
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatal(err)
	}
	want, err := wh.Sign("msg_p5jXN8AQM9LWM0D4loKWxJek", time.Unix(1614265330, 0), body)
	if err != nil {
		t.Fatal(err)
	}
	if want != "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=" {
		t.Fatalf("the library signs the published vector as %s", want)
	}
	h, err := webhook.Sign(webhook.SignStandard, webhook.Event{ID: "msg_p5jXN8AQM9LWM0D4loKWxJek", Body: body}, time.Unix(1614265330, 0), secret)
	if err != nil {
		t.Fatal(err)
	}
	if got := h.Get("webhook-signature"); got != want || h.Get("webhook-timestamp") != "1614265330" {
		t.Fatalf("pipe signs the published vector as %s", got)
	}
	if err := webhook.VerifyStandard(h, body, secret); errcode.CodeOf(err) != errcode.WebhookSignatureStale {
		t.Fatalf("a 2021 timestamp: %v, want stale", err)
	}
}

// The timestamp scheme, as an option: a delivery signed t=...,v1=... over
// v1:<t>:<id>:<topic>:<body> verifies with VerifyTimestamp, with either
// secret of a rotation.
func TestTheTimestampSchemeRoundTrips(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := context.Background()
	e := newEndpoint(t, false, nil)
	ep, ev := fixed(e.srv.URL, "new-secret", "old-secret")
	job := webhook.MustNew("timestamp", deliveryKey, webhook.Options[delivery]{Endpoint: ep, Event: ev, Signing: webhook.SignTimestamp,
		AllowHTTP: true, AllowPrivate: true})
	startWorker(t, pool, job)
	res, err := job.Enqueue(ctx, pool, delivery{Endpoint: "a", Event: "evt_9"})
	if err != nil {
		t.Fatal(err)
	}
	awaitState(t, pool, res.ID, pipeline.StateDone)
	h := e.got()[0]
	if h.header.Get("X-Webhook-Id") != "evt_9" || h.header.Get("X-Webhook-Topic") != "orders.paid" {
		t.Fatalf("headers %v", h.header)
	}
	for _, s := range []string{"new-secret", "old-secret"} {
		if err := webhook.VerifyTimestamp(h.header, h.body, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	if err := webhook.VerifyTimestamp(h.header, h.body, "third"); errcode.CodeOf(err) != errcode.WebhookSignatureInvalid {
		t.Fatalf("another secret: %v", err)
	}
}

// VerifyHMAC: hex and base64, a prefix, a rotation list; an empty secret
// is a configuration fault, never the empty key.
func TestVerifyHMAC(t *testing.T) {
	body := []byte(`{"id":"evt_1"}`)
	sig := hmacHex("whk", body)
	if err := webhook.VerifyHMAC(body, "sha256="+sig, webhook.HMAC{Secrets: []string{"new", "whk"}, Prefix: "sha256="}); err != nil {
		t.Fatal(err)
	}
	if err := webhook.VerifyHMAC(body, hmacB64("whk", body), webhook.HMAC{Secrets: []string{"whk"}, Encoding: "base64"}); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		given string
		o     webhook.HMAC
		want  errcode.Code
	}{
		"wrong secret": {"sha256=" + sig, webhook.HMAC{Secrets: []string{"nope"}, Prefix: "sha256="}, errcode.WebhookSignatureInvalid},
		"no prefix":    {sig, webhook.HMAC{Secrets: []string{"whk"}, Prefix: "sha256="}, errcode.WebhookSignatureInvalid},
		"missing":      {"", webhook.HMAC{Secrets: []string{"whk"}}, errcode.WebhookSignatureInvalid},
		"not hex":      {"zz", webhook.HMAC{Secrets: []string{"whk"}}, errcode.WebhookSignatureInvalid},
		"empty secret": {sig, webhook.HMAC{Secrets: []string{"whk", ""}}, errcode.ConfigInvalid},
		"bad encoding": {sig, webhook.HMAC{Secrets: []string{"whk"}, Encoding: "b32"}, errcode.ConfigInvalid},
	} {
		if err := webhook.VerifyHMAC(body, c.given, c.o); errcode.CodeOf(err) != c.want {
			t.Errorf("%s: %v, want %s", name, err, c.want)
		}
	}
}
