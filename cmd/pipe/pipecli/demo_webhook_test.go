package pipecli_test

import (
	"strings"
	"testing"

	"github.com/pipekit/pipe/webhook"
)

// The demo delivers one event, signed, to a receiver it serves on
// loopback: delivered with 2xx at the first attempt, handled by the
// receiver's job under the same event id, one ledger row; the text says
// so.
func TestDemoDeliversAWebhookToItsOwnReceiver(t *testing.T) {
	t.Parallel()
	b := setup(t)
	r := b.pipe(t, "demo", "--json")
	wantOK(t, r)
	rep := decodeLoose[struct {
		Webhook struct {
			EventID   string            `json:"eventId"`
			Delivered webhook.Result    `json:"delivered"`
			Handled   string            `json:"handled"`
			Ledger    []webhook.Attempt `json:"ledger"`
		} `json:"webhook"`
	}](t, r.stdout)
	w := rep.Webhook
	if w.Delivered.Status < 200 || w.Delivered.Status > 299 || w.Handled != w.EventID || w.Delivered.EventID != w.EventID ||
		len(w.Ledger) != 1 || w.Ledger[0].Outcome != webhook.Delivered {
		t.Fatalf("the demo webhook: %+v", w)
	}
	text := b.pipe(t, "demo")
	wantOK(t, text)
	if !strings.Contains(text.stdout, "delivered event evt_") || !strings.Contains(text.stdout, "the receiver queued it before its 200") {
		t.Fatalf("the demo text lacks the webhook:\n%s", text.stdout)
	}
}
