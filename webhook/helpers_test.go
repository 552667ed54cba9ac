package webhook_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/webhook"
)

// delivery is the input of the test webhooks: the endpoint and event are
// named in it, read back through a per-test table of endpoints.
type delivery struct {
	Endpoint string `json:"endpoint"`
	Event    string `json:"event"`
}

func deliveryKey(d delivery) string { return d.Endpoint + "/" + d.Event }

// startWorker runs a worker over jobs with test-fast polling until the test
// ends.
func startWorker(t *testing.T, pool *pgxpool.Pool, jobs ...pipeline.Registrable) *pipeline.Worker {
	t.Helper()
	reg, err := pipeline.NewRegistry(jobs...)
	if err != nil {
		t.Fatal(err)
	}
	w, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg, PollInterval: 10 * time.Millisecond,
		IdlePollMax: 50 * time.Millisecond, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = w.Shutdown(ctx)
	})
	return w
}

// awaitState waits until the run is in one of states and answers it.
func awaitState(t *testing.T, pool *pgxpool.Pool, id string, states ...pipeline.State) *pipeline.RunDetail {
	t.Helper()
	admin := pipeline.NewAdmin(pool)
	deadline := time.Now().Add(30 * time.Second)
	for {
		d, err := admin.Show(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(states, d.State) {
			return d
		}
		if time.Now().After(deadline) {
			t.Fatalf("run is %s after 30s; want one of %v", d.State, states)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// hit is one request an endpoint received.
type hit struct {
	at     time.Time
	header http.Header
	body   []byte
}

// endpoint is a real HTTP server answering what answer says and recording
// every request.
type endpoint struct {
	mu     sync.Mutex
	hits   []hit
	answer func(n int, w http.ResponseWriter, r *http.Request) // n counts requests from 1
	srv    *httptest.Server
}

func newEndpoint(t *testing.T, tls bool, answer func(n int, w http.ResponseWriter, r *http.Request)) *endpoint {
	e := &endpoint{answer: answer}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := make([]byte, 0, 256)
		buf := make([]byte, 4096)
		for {
			n, err := r.Body.Read(buf)
			body = append(body, buf[:n]...)
			if err != nil {
				break
			}
		}
		e.mu.Lock()
		e.hits = append(e.hits, hit{at: time.Now(), header: r.Header.Clone(), body: body})
		n := len(e.hits)
		e.mu.Unlock()
		if e.answer != nil {
			e.answer(n, w, r)
		}
	})
	if tls {
		e.srv = httptest.NewTLSServer(h)
	} else {
		e.srv = httptest.NewServer(h)
	}
	t.Cleanup(e.srv.Close)
	return e
}

func (e *endpoint) got() []hit {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.hits)
}

// await waits for n requests.
func (e *endpoint) await(t *testing.T, n int) []hit {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for len(e.got()) < n {
		if time.Now().After(deadline) {
			t.Fatalf("the endpoint got %d requests after 30s, want %d", len(e.got()), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return e.got()
}

// fixed answers the same endpoint and event for every input: url, secrets,
// and a JSON body naming the event.
func fixed(url string, secrets ...string) (func(context.Context, delivery) (webhook.Endpoint, error), func(context.Context, delivery) (webhook.Event, error)) {
	ep := func(_ context.Context, d delivery) (webhook.Endpoint, error) {
		return webhook.Endpoint{ID: d.Endpoint, URL: url, Secrets: secrets}, nil
	}
	ev := func(_ context.Context, d delivery) (webhook.Event, error) {
		return webhook.Event{ID: d.Event, Topic: "orders.paid", Body: []byte(`{"type":"orders.paid","id":"` + d.Event + `"}`)}, nil
	}
	return ep, ev
}

func hmacSum(key string, body []byte) []byte {
	m := hmac.New(sha256.New, []byte(key))
	m.Write(body)
	return m.Sum(nil)
}

func hmacHex(key string, body []byte) string { return hex.EncodeToString(hmacSum(key, body)) }
func hmacB64(key string, body []byte) string {
	return base64.StdEncoding.EncodeToString(hmacSum(key, body))
}
