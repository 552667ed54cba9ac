package webhookbench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/webhook"
)

const (
	inboundJob  = "pipe.bench.webhooks.in"
	naiveTable  = "pipe_bench_webhook_naive"
	inboundPath = "/hooks/bench"
)

// signed is one request, signed before the clock starts.
type signed struct {
	header http.Header
	body   []byte
}

// inbound measures pipe's receiver and the naive one: acks a second with
// Senders at once, then the ack latency at Rate requests a second.
func inbound(ctx context.Context, pool *pgxpool.Pool, o Options, r *Result) error {
	secret := webhook.NewSecret()
	rcv, err := webhook.NewReceiver(inboundJob, webhook.ReceiverOptions[struct{}]{
		Path: inboundPath,
		Verify: func(_ context.Context, in *webhook.Inbound) (webhook.Verdict[struct{}], error) {
			if err := webhook.VerifyStandard(in.Header, in.Bytes, secret); err != nil {
				return webhook.Verdict[struct{}]{}, err
			}
			return webhook.Verdict[struct{}]{EventID: in.Header.Get("webhook-id")}, nil
		},
		Handle: func(context.Context, *pipeline.Run[webhook.Received[struct{}]]) error { return nil },
	})
	if err != nil {
		return err
	}
	clean(pool, inboundJob)
	defer clean(pool, inboundJob)
	door := rcv.Handler(pool)
	defer door.Close()
	mux := http.NewServeMux()
	mux.Handle(inboundPath, door)
	naive, dropNaive, err := naiveHandler(ctx, pool, secret)
	if err != nil {
		return err
	}
	defer dropNaive()
	mux.Handle("/naive", naive)
	url, stop, err := server(mux)
	if err != nil {
		return err
	}
	defer stop()
	reqs, err := sign(secret, "t", o.Requests+o.Rate*int(o.RateFor.Seconds()+1))
	if err != nil {
		return err
	}
	c := client(o.Senders)
	send := func(path string, s signed) error { return post(c, url+path, s) }
	if r.InboundAnchor, err = loop(o.Requests, o.Senders, func(i int) error { return send("/naive", reqs[i]) }); err != nil {
		return err
	}
	if r.InboundPerSec, err = loop(o.Requests, o.Senders, func(i int) error { return send(inboundPath, reqs[i]) }); err != nil {
		return err
	}
	rest := reqs[o.Requests:]
	var lat []time.Duration
	if lat, err = atRate(o, func(i int) error { return send("/naive", rest[i]) }); err != nil {
		return err
	}
	r.AnchorAckP99Ms = ms(pct(lat, 0.99))
	if lat, err = atRate(o, func(i int) error { return send(inboundPath, rest[i]) }); err != nil {
		return err
	}
	r.AckP50Ms, r.AckP99Ms = ms(pct(lat, 0.50)), ms(pct(lat, 0.99))
	return nil
}

// sign answers n requests with distinct event ids.
func sign(secret, prefix string, n int) ([]signed, error) {
	out := make([]signed, n)
	now := time.Now()
	for i := range out {
		id := prefix + "-" + strconv.Itoa(i)
		body := []byte(`{"id":"` + id + `","type":"invoice.paid","amount":4200}`)
		h, err := webhook.Sign(webhook.SignStandard, webhook.Event{ID: id, Body: body}, now, secret)
		if err != nil {
			return nil, err
		}
		h.Set("Content-Type", "application/json")
		out[i] = signed{header: h, body: body}
	}
	return out, nil
}

func post(c *http.Client, url string, s signed) error {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(s.body))
	if err != nil {
		return err
	}
	req.Header = s.header
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("the receiver answered %d", resp.StatusCode)
	}
	return nil
}

// naiveHandler is the anchor: verify, then one INSERT committed per
// request, then 200.
func naiveHandler(ctx context.Context, pool *pgxpool.Pool, secret string) (http.Handler, func(), error) {
	_, err := pool.Exec(ctx, `create table if not exists `+naiveTable+` (event_id text primary key, payload jsonb not null)`)
	if err != nil {
		return nil, nil, err
	}
	drop := func() { _, _ = pool.Exec(context.Background(), `drop table if exists `+naiveTable) }
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, webhook.DefaultMaxBytes))
		if err == nil {
			err = webhook.VerifyStandard(r.Header, body, secret)
		}
		if err == nil {
			_, err = pool.Exec(r.Context(), `insert into `+naiveTable+` (event_id, payload) values ($1, $2) on conflict do nothing`,
				r.Header.Get("webhook-id"), body)
		}
		if err != nil {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusOK)
	})
	return h, drop, nil
}

// atRate sends Rate requests a second for RateFor, each on its own
// goroutine at its scheduled instant, and answers each one's latency.
func atRate(o Options, send func(i int) error) ([]time.Duration, error) {
	n := o.Rate * int(o.RateFor/time.Second)
	lat := make([]time.Duration, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range n {
		time.Sleep(time.Until(start.Add(time.Duration(i) * time.Second / time.Duration(o.Rate))))
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := time.Now()
			errs[i] = send(i)
			lat[i] = time.Since(t)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return lat, nil
}

// pct answers the p-th quantile of d; 0 when d is empty (a rate run too
// short to send one request).
func pct(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(int(float64(len(s))*p), len(s)-1)]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
