package pipecli_test

import (
	"strings"
	"testing"

	"github.com/pipekit/pipe/webhook"
)

// endpoints add prints the secret once; list never prints a secret;
// disable, enable and rotate-secret change the stored row; deliveries
// filter by endpoint and event. Each with --json; an unknown id is
// X_WEBHOOK_ENDPOINT_UNKNOWN, a plain http URL X_WEBHOOK_ENDPOINT_INVALID,
// a --limit outside 1 to 10,000 X_CONFIG_INVALID.
func TestWebhooksEndpointsAndDeliveries(t *testing.T) {
	t.Parallel()
	b := setup(t)
	added := decode[map[string]string](t, b.pipe(t, "webhooks", "endpoints", "add", "acme", "https://hooks.acme.example/in", "--json").stdout)
	if added["id"] != "acme" || !strings.HasPrefix(added["secret"], webhook.SecretPrefix) {
		t.Fatalf("add --json = %v", added)
	}
	text := b.pipe(t, "webhooks", "endpoints", "add", "globex", "https://hooks.globex.example/in")
	wantOK(t, text)
	if !strings.Contains(text.stdout, "secret whsec_") {
		t.Fatalf("add printed %q", text.stdout)
	}
	wantError(t, b.pipe(t, "webhooks", "endpoints", "add", "acme", "https://x.example/"), 1, "X_CONFIG_INVALID")
	wantError(t, b.pipe(t, "webhooks", "endpoints", "add", "plain", "http://x.example/"), 1, "X_WEBHOOK_ENDPOINT_INVALID")
	wantError(t, b.pipe(t, "webhooks", "endpoints", "add", "meta", "https://169.254.169.254/"), 1, "X_WEBHOOK_ENDPOINT_INVALID")

	wantOK(t, b.pipe(t, "webhooks", "endpoints", "disable", "acme"))
	rotated := decode[map[string]string](t, b.pipe(t, "webhooks", "endpoints", "rotate-secret", "globex", "--json").stdout)
	list := b.pipe(t, "webhooks", "endpoints", "list", "--json")
	if strings.Contains(list.stdout, "whsec_") {
		t.Fatal("list printed a secret")
	}
	es := decode[[]webhook.StoredEndpoint](t, list.stdout)
	if len(es) != 2 || es[0].Enabled || !es[1].Enabled {
		t.Fatalf("list --json = %+v", es)
	}
	s := webhook.NewStore(b.pool)
	g, err := s.Get(t.Context(), "globex")
	if err != nil || len(g.Secrets) != 2 || g.Secrets[0] != rotated["secret"] {
		t.Fatalf("after rotate-secret: %d secrets (%v), the first the printed one: %v", len(g.Secrets), err, g.Secrets[0] == rotated["secret"])
	}
	wantOK(t, b.pipe(t, "webhooks", "endpoints", "enable", "acme"))
	if !rowStarts(b.pipe(t, "webhooks", "endpoints", "list").stdout, "acme", "https://hooks.acme.example/in", "true", "0", "1") {
		t.Fatal("list lacks acme's row, enabled again")
	}
	wantError(t, b.pipe(t, "webhooks", "endpoints", "enable", "nobody"), 1, "X_WEBHOOK_ENDPOINT_UNKNOWN")

	l := webhook.PostgresLedger(b.pool)
	for _, a := range []webhook.Attempt{
		{Job: "j", RunID: "0190c6f0-7a36-7cc1-a3f2-5e0c2b7d9a11", EndpointID: "acme", EventID: "e1", Attempt: 1, Status: 503, Outcome: webhook.Throttled, Code: "X_WEBHOOK_DELIVERY_THROTTLED"},
		{Job: "j", RunID: "0190c6f0-7a36-7cc1-a3f2-5e0c2b7d9a11", EndpointID: "acme", EventID: "e1", Attempt: 2, Status: 200, Outcome: webhook.Delivered},
		{Job: "j", RunID: "0190c6f0-7a36-7cc1-a3f2-5e0c2b7d9a12", EndpointID: "globex", EventID: "e1", Attempt: 1, Status: 200, Outcome: webhook.Delivered},
	} {
		if err := l.Record(t.Context(), a); err != nil {
			t.Fatal(err)
		}
	}
	rows := decode[[]webhook.Attempt](t, b.pipe(t, "webhooks", "deliveries", "--endpoint", "acme", "--json").stdout)
	if len(rows) != 2 || rows[0].Attempt != 2 || rows[1].Outcome != webhook.Throttled {
		t.Fatalf("deliveries --endpoint acme = %+v", rows)
	}
	if n := len(decode[[]webhook.Attempt](t, b.pipe(t, "webhooks", "deliveries", "--event", "e1", "--json").stdout)); n != 3 {
		t.Fatalf("deliveries --event e1 answered %d rows", n)
	}
	if !rowHas(b.pipe(t, "webhooks", "deliveries", "--endpoint", "globex").stdout, "globex", "e1", "1", "200", "delivered") {
		t.Fatal("deliveries lacks globex's row")
	}
	wantError(t, b.pipe(t, "webhooks", "deliveries", "--limit=-5"), 1, "X_CONFIG_INVALID")
	wantError(t, b.pipe(t, "webhooks", "deliveries", "--limit", "0"), 1, "X_CONFIG_INVALID")
}

// rowStarts reports whether out holds a line whose first fields are cells.
func rowStarts(out string, cells ...string) bool {
	want := strings.Join(cells, " ") + " "
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.Join(strings.Fields(line), " ")+" ", want) {
			return true
		}
	}
	return false
}

// rowHas reports whether out holds a line whose fields after the first are
// cells, then more.
func rowHas(out string, cells ...string) bool {
	want := " " + strings.Join(cells, " ") + " "
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(" "+strings.Join(strings.Fields(line), " ")+" ", want) {
			return true
		}
	}
	return false
}
