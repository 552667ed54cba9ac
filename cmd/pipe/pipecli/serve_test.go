package pipecli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pipekit/pipe/cmd/pipe/pipecli"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/webhook"
)

type serveEvent struct {
	ID string `json:"id"`
}

// pipe serve mounts a registered receiver: a signed event is acknowledged
// after its row committed, /healthz and /metrics answer, pipe worker runs
// the receiver's job without it being listed in Jobs, and the server stops
// cleanly when the command is stopped.
func TestServeMountsTheRegisteredReceivers(t *testing.T) {
	t.Parallel()
	b := setup(t)
	secret := webhook.NewSecret()
	handled := make(chan string, 1)
	rcv := webhook.MustReceiver("vendor.events", webhook.ReceiverOptions[serveEvent]{
		Path: "/hooks/vendor",
		Verify: func(_ context.Context, in *webhook.Inbound) (webhook.Verdict[serveEvent], error) {
			if err := webhook.VerifyStandard(in.Header, in.Bytes, secret); err != nil {
				return webhook.Verdict[serveEvent]{}, err
			}
			return webhook.Verdict[serveEvent]{EventID: in.Header.Get("webhook-id"), Payload: serveEvent{ID: "x"}}, nil
		},
		Handle: func(_ context.Context, r *pipeline.Run[webhook.Received[serveEvent]]) error {
			handled <- r.Input.EventID
			return nil
		},
	})
	opts := pipecli.Options{Receivers: []pipecli.Receiver{rcv}}
	srv := b.start(t, opts, "serve", "--addr", "127.0.0.1:0", "--json")
	waitFor(t, "serve to listen", func() bool { return strings.Contains(srv.stdout.String(), "addr") })
	var up struct {
		Addr      string `json:"addr"`
		Receivers int    `json:"receivers"`
	}
	if err := json.Unmarshal([]byte(srv.stdout.String()), &up); err != nil || up.Receivers != 1 {
		t.Fatalf("serve printed %q", srv.stdout.String())
	}
	base := "http://" + up.Addr
	body := []byte(`{"id":"x"}`)
	h, err := webhook.Sign(webhook.SignStandard, webhook.Event{ID: "evt_serve", Body: body}, time.Now(), secret)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodPost, base+"/hooks/vendor", bytes.NewReader(body))
	req.Header = h
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	ack, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(ack), `"eventId":"evt_serve"`) {
		t.Fatalf("the receiver answered %d %s", resp.StatusCode, ack)
	}
	for path, want := range map[string]string{"/healthz": `{"ok":true}`, "/metrics": "queue_depth{queue=\"default\""} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(got), want) {
			t.Fatalf("%s answered %d %.200s", path, resp.StatusCode, got)
		}
	}
	b.start(t, opts, "worker")
	select {
	case id := <-handled:
		if id != "evt_serve" {
			t.Fatalf("the worker handled %s", id)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("pipe worker did not run the receiver's job")
	}
	wantOK(t, srv.wait())
}
