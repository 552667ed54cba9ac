package webhook_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/webhook"
)

// invoice is the billing vendor's event, as the test receiver reads it.
type invoice struct {
	ID     string `json:"id"`
	Amount int    `json:"amount"`
}

// billing is a receiver of Standard Webhooks signed with either of secrets
// (a rotation), at /hooks/billing/{account}; handled records what Handle
// received.
type billing struct {
	rcv     *webhook.Receiver[invoice]
	opts    webhook.ReceiverOptions[invoice]
	mu      sync.Mutex
	handled []webhook.Received[invoice]
}

func newBilling(t *testing.T, secrets []string, handshake bool) *billing {
	b := &billing{}
	o := webhook.ReceiverOptions[invoice]{
		Path: "/hooks/billing/{account}",
		Verify: func(_ context.Context, in *webhook.Inbound) (webhook.Verdict[invoice], error) {
			if in.Header.Get("X-Challenge") != "" {
				return webhook.Verdict[invoice]{Answer: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
					_, _ = io.WriteString(w, "confirmed")
				})}, nil
			}
			if err := webhook.VerifyStandard(in.Header, in.Bytes, secrets...); err != nil {
				return webhook.Verdict[invoice]{}, err
			}
			var ev invoice
			if err := json.Unmarshal(in.Bytes, &ev); err != nil {
				return webhook.Verdict[invoice]{}, errcode.New("X_BILLING_EVENT_INVALID", "the billing event is not JSON")
			}
			return webhook.Verdict[invoice]{EventID: in.Header.Get("webhook-id"), Payload: ev}, nil
		},
		Handle: func(_ context.Context, r *pipeline.Run[webhook.Received[invoice]]) error {
			b.mu.Lock()
			defer b.mu.Unlock()
			b.handled = append(b.handled, r.Input)
			return nil
		},
		MaxBytes: 64 << 10,
	}
	if handshake {
		o.Handshake = func(_ context.Context, in *webhook.Inbound) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "hello "+in.Params["account"]) })
		}
	}
	b.rcv, b.opts = webhook.MustReceiver("billing.events", o), o
	return b
}

// serve mounts the receiver's door on a real server over db.
func (b *billing) serve(t *testing.T, db pipeline.DB) *httptest.Server {
	door := b.rcv.Handler(db)
	mux := http.NewServeMux()
	mux.Handle(b.rcv.Path(), door)
	srv := httptest.NewServer(mux)
	t.Cleanup(func() { srv.Close(); door.Close() })
	return srv
}

// answer is a door's response.
type answer struct {
	status int
	header http.Header
	body   string
	ack    map[string]any
}

// post sends body signed as event id at `at` with secret ("" unsigned).
func post(t *testing.T, url, id string, body []byte, at time.Time, secret string) answer {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if secret != "" {
		h, err := webhook.Sign(webhook.SignStandard, webhook.Event{ID: id, Body: body}, at, secret)
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range h {
			req.Header[k] = v
		}
	}
	return do(t, req)
}

func do(t *testing.T, req *http.Request) answer {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	raw, _ := io.ReadAll(resp.Body)
	a := answer{status: resp.StatusCode, header: resp.Header, body: string(raw)}
	_ = json.Unmarshal(raw, &a.ack)
	return a
}

func countRuns(t *testing.T, db pipeline.DB, name string) int {
	t.Helper()
	var n int
	if err := db.QueryRow(context.Background(), `select count(*) from pipe.jobs where name = $1`, name).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A signed event is queued durably, then acknowledged with its id; a
// redelivery while the run is live is deduped; the stored input shows
// [redacted]; Handle receives the payload and the path's params.
func TestAReceiverQueuesThenAcknowledges(t *testing.T) {
	pool := fixtures.DB(t)
	secret := webhook.NewSecret()
	b := newBilling(t, []string{secret}, false)
	srv := b.serve(t, pool)
	body := []byte(`{"id":"in_1","amount":4200}`)
	a := post(t, srv.URL+"/hooks/billing/acct_7", "evt_1", body, time.Now(), secret)
	if a.status != 200 || a.ack["ok"] != true || a.ack["eventId"] != "evt_1" || a.ack["deduped"] != false {
		t.Fatalf("first delivery: %d %s", a.status, a.body)
	}
	again := post(t, srv.URL+"/hooks/billing/acct_7", "evt_1", body, time.Now(), secret)
	if again.status != 200 || again.ack["deduped"] != true {
		t.Fatalf("redelivery: %d %s", again.status, again.body)
	}
	page, err := pipeline.NewAdmin(pool).List(context.Background(), pipeline.ListFilter{Name: "billing.events"})
	if err != nil || len(page.Jobs) != 1 {
		t.Fatalf("%v runs queued (%v), want 1", len(page.Jobs), err)
	}
	d, err := pipeline.NewAdmin(pool).Show(context.Background(), page.Jobs[0].ID)
	if err != nil || string(d.Input) != `"[redacted]"` {
		t.Fatalf("show printed the input %s (%v)", d.Input, err)
	}
	startWorker(t, pool, b.rcv.Job())
	awaitState(t, pool, page.Jobs[0].ID, pipeline.StateDone)
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.handled) != 1 || b.handled[0].EventID != "evt_1" || b.handled[0].Payload.Amount != 4200 || b.handled[0].Params["account"] != "acct_7" {
		t.Fatalf("Handle received %+v", b.handled)
	}
}

// Every refusal is coded, queues nothing and echoes nothing of the
// request: a wrong secret and an unsigned request 401, a stale timestamp
// 401 _STALE, a body over MaxBytes 413, an event id that is not printable
// ASCII 422, an unreadable event 400 with the app's code, GET without a
// handshake 405.
func TestAReceiverRefusesWithCodes(t *testing.T) {
	pool := fixtures.DB(t)
	secret := webhook.NewSecret()
	b := newBilling(t, []string{secret}, false)
	srv := b.serve(t, pool)
	url := srv.URL + "/hooks/billing/acct_7"
	body := []byte(`{"id":"in_1","amount":1}`)
	big := append([]byte(`{"id":"in_2","pad":"`), bytes.Repeat([]byte("x"), 1<<20)...)
	for name, c := range map[string]struct {
		a      answer
		status int
		code   string
	}{
		"wrong secret": {post(t, url, "evt_1", body, time.Now(), webhook.NewSecret()), 401, "X_WEBHOOK_SIGNATURE_INVALID"},
		"unsigned":     {post(t, url, "evt_1", body, time.Now(), ""), 401, "X_WEBHOOK_SIGNATURE_INVALID"},
		"stale":        {post(t, url, "evt_1", body, time.Now().Add(-10*time.Minute), secret), 401, "X_WEBHOOK_SIGNATURE_STALE"},
		"over the cap": {post(t, url, "evt_2", big, time.Now(), secret), 413, "X_BODY_INVALID"},
		"bad event id": {post(t, url, "évt-secret-id", body, time.Now(), secret), 422, "X_WEBHOOK_EVENT_ID_INVALID"},
		"not JSON":     {post(t, url, "evt_3", []byte(`{"id":`), time.Now(), secret), 400, "X_BILLING_EVENT_INVALID"},
		"GET":          {do(t, must(http.NewRequest(http.MethodGet, url, nil))), 405, "X_BODY_INVALID"},
	} {
		if c.a.status != c.status || c.a.ack["code"] != c.code {
			t.Errorf("%s: %d %s, want %d %s", name, c.a.status, c.a.body, c.status, c.code)
		}
		if strings.Contains(c.a.body, "secret-id") || strings.Contains(c.a.body, "in_1") || strings.Contains(c.a.body, "xxxx") {
			t.Errorf("%s: the answer echoes the request: %s", name, c.a.body)
		}
	}
	if n := countRuns(t, pool, "billing.events"); n != 0 {
		t.Fatalf("%d runs queued by refused requests", n)
	}
}

func must(r *http.Request, err error) *http.Request {
	if err != nil {
		panic(err)
	}
	return r
}

// A handshake answers GET; a challenge Verify answers is served as is;
// neither queues anything.
func TestHandshakeAndChallenge(t *testing.T) {
	pool := fixtures.DB(t)
	b := newBilling(t, []string{webhook.NewSecret()}, true)
	srv := b.serve(t, pool)
	if a := do(t, must(http.NewRequest(http.MethodGet, srv.URL+"/hooks/billing/acct_9", nil))); a.status != 200 || a.body != "hello acct_9" {
		t.Fatalf("handshake: %d %q", a.status, a.body)
	}
	req := must(http.NewRequest(http.MethodPost, srv.URL+"/hooks/billing/acct_9", strings.NewReader(`{}`)))
	req.Header.Set("X-Challenge", "c-1")
	if a := do(t, req); a.status != 200 || a.body != "confirmed" {
		t.Fatalf("challenge: %d %q", a.status, a.body)
	}
	if n := countRuns(t, pool, "billing.events"); n != 0 {
		t.Fatalf("%d runs queued", n)
	}
}

// A receiver verifying with the new and the old secret accepts a sender
// still signing with the old one and one signing with the new; a third is
// refused.
func TestAReceiverAcceptsBothSecretsOfARotation(t *testing.T) {
	pool := fixtures.DB(t)
	newS, oldS := webhook.NewSecret(), webhook.NewSecret()
	b := newBilling(t, []string{newS, oldS}, false)
	srv := b.serve(t, pool)
	url := srv.URL + "/hooks/billing/a"
	for i, s := range []string{oldS, newS} {
		if a := post(t, url, "evt_r"+string(rune('0'+i)), []byte(`{"id":"x"}`), time.Now(), s); a.status != 200 {
			t.Fatalf("secret %d: %d %s", i, a.status, a.body)
		}
	}
	if a := post(t, url, "evt_r9", []byte(`{"id":"x"}`), time.Now(), webhook.NewSecret()); a.status != 401 {
		t.Fatalf("a third secret: %d", a.status)
	}
}

// While the database is stopped the door answers 503 with Retry-After: 30
// and X_WEBHOOK_RECEIVER_UNAVAILABLE, nothing acknowledged; the sender's
// redelivery once it is back is queued and acknowledged, once.
func TestAReceiverAnswers503WhileTheDatabaseIsDown(t *testing.T) {
	pg := fixtures.RestartableServer(t)
	pool := pg.DB(t)
	secret := webhook.NewSecret()
	b := newBilling(t, []string{secret}, false)
	srv := b.serve(t, pool)
	url := srv.URL + "/hooks/billing/a"
	body := []byte(`{"id":"in_5","amount":5}`)
	pg.Stop(t)
	a := post(t, url, "evt_down", body, time.Now(), secret)
	if a.status != 503 || a.header.Get("Retry-After") != "30" || a.ack["code"] != "X_WEBHOOK_RECEIVER_UNAVAILABLE" {
		t.Fatalf("while down: %d %v %s", a.status, a.header.Get("Retry-After"), a.body)
	}
	pg.Start(t)
	var again answer
	deadline := time.Now().Add(30 * time.Second)
	for {
		again = post(t, url, "evt_down", body, time.Now(), secret)
		if again.status != 503 || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond) // the sender's own redelivery loop
	}
	if again.status != 200 || again.ack["deduped"] != false {
		t.Fatalf("the redelivery after: %d %s", again.status, again.body)
	}
	if n := countRuns(t, pool, "billing.events"); n != 1 {
		t.Fatalf("%d runs queued, want 1", n)
	}
}

// A declaration fault is X_WEBHOOK_RECEIVER_INVALID naming each fault.
func TestAReceiverDeclarationIsChecked(t *testing.T) {
	_, err := webhook.NewReceiver("r", webhook.ReceiverOptions[invoice]{Path: "hooks", MaxBytes: -1})
	if errcode.CodeOf(err) != errcode.WebhookReceiverInvalid {
		t.Fatalf("%v", err)
	}
	for _, want := range []string{"Path", "Verify", "Handle", "MaxBytes"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal does not name %s: %v", want, err)
		}
	}
}

// An event id with control characters never queues a run. Go's HTTP server
// refuses a header holding one (other than a tab) itself, 400 before the
// receiver sees the request; an id with a tab reaches Verify and is refused
// 422 X_WEBHOOK_EVENT_ID_INVALID. Neither answer echoes the id.
func TestAnEventIDWithControlCharactersIsRefused(t *testing.T) {
	pool := fixtures.DB(t)
	secret := webhook.NewSecret()
	b := newBilling(t, []string{secret}, false)
	srv := b.serve(t, pool)
	body := []byte(`{"id":"in_1","amount":1}`)
	tab := post(t, srv.URL+"/hooks/billing/acct_7", "evt\tsecret-id", body, time.Now(), secret)
	if tab.status != http.StatusUnprocessableEntity || tab.ack["code"] != "X_WEBHOOK_EVENT_ID_INVALID" || strings.Contains(tab.body, "secret-id") {
		t.Fatalf("an id with a tab: %d %s", tab.status, tab.body)
	}
	for _, id := range []string{"evt\x01secret-id", "evt\x1bsecret-id", "evt\x7fsecret-id"} {
		h, err := webhook.Sign(webhook.SignStandard, webhook.Event{ID: id, Body: body}, time.Now(), secret)
		if err != nil {
			t.Fatal(err)
		}
		status, answer := rawPost(t, srv.Listener.Addr().String(), "/hooks/billing/acct_7", h, body)
		if status != http.StatusBadRequest || strings.Contains(answer, "secret-id") {
			t.Errorf("an id with %q: %d %s", id[3], status, answer)
		}
	}
	if n := countRuns(t, pool, "billing.events"); n != 0 {
		t.Fatalf("%d runs queued by refused ids", n)
	}
}

// rawPost writes a POST by hand (Go's client will not send a header with a
// control character) and answers the status and the whole answer.
func rawPost(t *testing.T, addr, path string, h http.Header, body []byte) (int, string) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.Close() }()
	var req strings.Builder
	fmt.Fprintf(&req, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n", path, addr, len(body))
	for k, vs := range h {
		for _, v := range vs {
			fmt.Fprintf(&req, "%s: %s\r\n", k, v)
		}
	}
	req.WriteString("\r\n")
	if _, err := io.WriteString(c, req.String()+string(body)); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(raw)
}
