package pipecli

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/webhook"
)

// demoWebhookReport is what the demo's webhook part did: one event
// delivered, signed, to a receiver served on loopback, which acknowledged
// it after queueing it and then handled it.
type demoWebhookReport struct {
	EventID   string            `json:"eventId"`
	URL       string            `json:"url"`
	Delivered webhook.Result    `json:"delivered"`
	Handled   string            `json:"handled"`
	Ledger    []webhook.Attempt `json:"ledger"`
}

// demoDelivery is the demo webhook's input; demoOrderPaid the event both
// sides read.
type demoDelivery struct {
	EventID string `json:"eventId"`
}

type demoOrderPaid struct {
	Type    string `json:"type"`
	OrderID string `json:"orderId"`
}

// demoWebhook serves a receiver on loopback and delivers one event to it
// through a worker running both jobs.
func (a *app) demoWebhook(ctx context.Context, pool *pgxpool.Pool) (*demoWebhookReport, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	secret, eventID := webhook.NewSecret(), "evt_"+uuid.NewString()
	handled := make(chan string, 1)
	rcv, err := demoReceiver(secret, handled)
	if err != nil {
		return nil, err
	}
	door := rcv.Handler(pool)
	mux := http.NewServeMux()
	mux.Handle(rcv.Path(), door)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer func() { _ = srv.Close(); door.Close() }()
	url := "http://" + ln.Addr().String() + "/hooks/demo"
	ledger := webhook.PostgresLedger(pool)
	defer ledger.Close()
	out, err := demoDeliverer(url, secret, ledger)
	if err != nil {
		return nil, err
	}
	return a.runDemoWebhook(ctx, pool, out, rcv.Job(), ledger, demoDelivery{EventID: eventID}, handled, url)
}

// runDemoWebhook enqueues the delivery and works both jobs until the
// receiver handled the event.
func (a *app) runDemoWebhook(ctx context.Context, pool *pgxpool.Pool, out *pipeline.Job[demoDelivery, webhook.Result],
	in pipeline.Registrable, ledger *webhook.PGLedger, d demoDelivery, handled <-chan string, url string) (*demoWebhookReport, error) {
	res, err := out.Enqueue(ctx, pool, d)
	if err != nil {
		return nil, err
	}
	reg, err := pipeline.NewRegistry(out, in)
	if err != nil {
		return nil, err
	}
	w, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg, Queues: map[string]int{pipeline.DefaultQueue: 2},
		PollInterval: demoPoll, IdlePollMax: demoIdleMax, NoWake: true,
		Logger: slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	if err != nil {
		return nil, err
	}
	if err := w.Start(ctx); err != nil {
		return nil, err
	}
	defer func() {
		drainCtx, cancel := context.WithTimeout(context.Background(), demoDrain)
		defer cancel()
		_ = w.Shutdown(drainCtx)
	}()
	r := &demoWebhookReport{EventID: d.EventID, URL: url}
	select {
	case r.Handled = <-handled:
	case <-time.After(demoDeadline):
		return nil, errcode.New(errcode.Invariant, "the demo webhook was not handled within %s", demoDeadline).
			WithFix("read the runs with `pipe jobs list --name demo.orders.webhook`")
	}
	run, err := awaitSettled(ctx, pipeline.NewAdmin(pool), res.ID)
	if err != nil {
		return nil, err
	}
	_ = json.Unmarshal(run.Result, &r.Delivered)
	r.Ledger, err = ledger.List(ctx, webhook.Filter{EventID: d.EventID})
	return r, err
}

// demoDeliverer is the outbound half: order events to the loopback
// receiver (plain http and a loopback address are allowed for the demo
// alone).
func demoDeliverer(url, secret string, ledger webhook.Ledger) (*pipeline.Job[demoDelivery, webhook.Result], error) {
	return webhook.New("demo.orders.webhook", func(d demoDelivery) string { return d.EventID }, webhook.Options[demoDelivery]{
		Endpoint: func(context.Context, demoDelivery) (webhook.Endpoint, error) {
			return webhook.Endpoint{ID: "demo-partner", URL: url, Secrets: []string{secret}}, nil
		},
		Event: func(_ context.Context, d demoDelivery) (webhook.Event, error) {
			body, err := json.Marshal(demoOrderPaid{Type: "orders.paid", OrderID: "o-1001"})
			return webhook.Event{ID: d.EventID, Topic: "orders.paid", Body: body}, err
		},
		Ledger: ledger, AllowHTTP: true, AllowPrivate: true,
	})
}

// demoReceiver is the inbound half: it verifies the Standard Webhooks
// signature, queues the event and tells handled once its job ran.
func demoReceiver(secret string, handled chan<- string) (*webhook.Receiver[demoOrderPaid], error) {
	return webhook.NewReceiver("demo.partner.receiver", webhook.ReceiverOptions[demoOrderPaid]{
		Path: "/hooks/demo",
		Verify: func(_ context.Context, in *webhook.Inbound) (webhook.Verdict[demoOrderPaid], error) {
			var v webhook.Verdict[demoOrderPaid]
			if err := webhook.VerifyStandard(in.Header, in.Bytes, secret); err != nil {
				return v, err
			}
			if err := json.Unmarshal(in.Bytes, &v.Payload); err != nil {
				return v, errcode.New(errcode.BodyInvalid, "the order event is not JSON")
			}
			v.EventID = in.Header.Get(webhook.HeaderID)
			return v, nil
		},
		Handle: func(_ context.Context, r *pipeline.Run[webhook.Received[demoOrderPaid]]) error {
			select {
			case handled <- r.Input.EventID:
			default:
			}
			return nil
		},
	})
}

func (a *app) narrateWebhook(r *demoWebhookReport) {
	fmt.Fprintf(a.stdout, "delivered event %s to a receiver on %s (answered %d, signed Standard Webhooks); the receiver queued it before its 200 and handled it; the ledger holds %d attempt(s), no body.\n\n",
		r.EventID, r.URL, r.Delivered.Status, len(r.Ledger))
}
