package webhook_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/webhook"
)

// A receiver's RateLimit takes Burst requests at once and answers the next
// 429 X_RATE_LIMITED with a Retry-After, before reading its body, nothing
// queued; a bad limit is refused at declaration.
func TestAReceiversRateLimitAnswers429(t *testing.T) {
	pool := fixtures.DB(t)
	secret := webhook.NewSecret()
	b := newBilling(t, []string{secret}, false)
	o := b.opts
	o.Path, o.RateLimit = "/hooks/limited", &webhook.RateLimit{PerSecond: 0.01, Burst: 2}
	limited := webhook.MustReceiver("billing.limited", o)
	door := limited.Handler(pool)
	srv := httptest.NewServer(door)
	t.Cleanup(func() { srv.Close(); door.Close() })
	var answers []answer
	for i := range 3 {
		id := fmt.Sprint("evt_limited_", i)
		answers = append(answers, post(t, srv.URL, id, []byte(`{"id":"`+id+`","amount":1}`), time.Now(), secret))
	}
	if answers[0].status != http.StatusOK || answers[1].status != http.StatusOK {
		t.Fatalf("the burst's requests: %d, %d; want 200, 200", answers[0].status, answers[1].status)
	}
	third := answers[2]
	retry, err := strconv.Atoi(third.header.Get("Retry-After"))
	if third.status != http.StatusTooManyRequests || third.ack["code"] != string(errcode.RateLimited) || err != nil || retry < 1 {
		t.Fatalf("the request over the limit: %d %v, Retry-After %q", third.status, third.ack, third.header.Get("Retry-After"))
	}
	if n := countRuns(t, pool, "billing.limited"); n != 2 {
		t.Fatalf("%d runs queued; want the burst's 2", n)
	}
	for _, bad := range []*webhook.RateLimit{{PerSecond: 0}, {PerSecond: 5, Burst: -1}} {
		o.RateLimit = bad
		_, err := webhook.NewReceiver("r", o)
		if errcode.CodeOf(err) != errcode.WebhookReceiverInvalid {
			t.Fatalf("RateLimit %+v: %v", *bad, err)
		}
	}
}
