package pipecli_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"strings"
	"testing"

	"github.com/pipekit/pipe/cmd/pipe/pipecli"
	"github.com/pipekit/pipe/outbox"
)

// pipe worker --config runs the file's outbox relay, and the relay logs in
// the worker's own format: with --json, its outbox.publish.failed line (a
// message RabbitMQ routes to no queue) is a JSON line like every other.
func TestWorkerRelaysTheProjectFilesOutboxAndLogsInItsFormat(t *testing.T) {
	t.Parallel()
	b := setup(t)
	broker := os.Getenv("RABBITMQ_URL")
	if broker == "" {
		broker = "amqp://guest:guest@127.0.0.1:5672/"
	}
	suffix := make([]byte, 6)
	_, _ = rand.Read(suffix)
	stream := "pipe-test-unrouted-" + hex.EncodeToString(suffix) // no queue takes it
	if _, err := outbox.Stage(t.Context(), b.pool, outbox.Message{Stream: stream, Payload: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	cfg := writeConfig(t, fmt.Sprintf(`{"outbox": {"broker": %q, "streams": [{"name": %q}]}}`, broker, stream))
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan result, 1)
	go func() {
		done <- execute(ctx, pipecli.Options{}, "--database-url", b.url, "--json", "worker", "--config", cfg)
	}()
	waitFor(t, "the relay to dead-letter the unroutable message", func() bool {
		var dead bool
		if err := b.pool.QueryRow(t.Context(), `select exists (select 1 from pipe.outbox where stream = $1 and fault = 'dead')`, stream).Scan(&dead); err != nil {
			t.Fatal(err)
		}
		return dead
	})
	cancel()
	r := <-done
	wantOK(t, r)
	var failed int
	for _, line := range strings.Split(strings.TrimSpace(r.stderr), "\n") {
		var l struct {
			Msg, Level, Stream, Code string
		}
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("a --json log line is not JSON: %q", line)
		}
		if l.Msg == "outbox.publish.failed" {
			failed++
			if l.Level != "ERROR" || l.Stream != stream || l.Code != "X_OUTBOX_PUBLISH_REFUSED" {
				t.Fatalf("the relay logged %+v", l)
			}
		}
	}
	if failed != 1 {
		t.Fatalf("%d outbox.publish.failed lines; want 1:\n%s", failed, r.stderr)
	}
}

// pipe verify --config checks the file's outbox: its relay against the
// catalog and its broker, which must answer. An outbox-only file is one
// declaration checked, not none; a broker that does not answer is
// X_OUTBOX_BROKER_UNAVAILABLE, the URL (it may hold a password) unquoted.
func TestVerifyChecksTheProjectFilesOutbox(t *testing.T) {
	t.Parallel()
	b := setup(t)
	broker := os.Getenv("RABBITMQ_URL")
	if broker == "" {
		broker = "amqp://guest:guest@127.0.0.1:5672/"
	}
	ok := b.pipe(t, "verify", "--config", writeConfig(t, fmt.Sprintf(`{"outbox": {"broker": %q, "streams": [{"name": "orders"}]}}`, broker)))
	wantOK(t, ok)
	if !strings.Contains(ok.stdout, "ok    outbox ") || !strings.Contains(ok.stdout, "1 declaration(s) checked, 0 fault(s)") {
		t.Fatalf("pipe verify of an outbox-only file:\n%s", ok.stdout)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().String()
	_ = l.Close() // nothing answers there now
	r := b.pipe(t, "verify", "--config", writeConfig(t, `{"outbox": {"broker": "amqp://u:s3cret@`+closed+`/", "streams": [{"name": "orders"}]}}`))
	if r.code != 1 || !strings.Contains(r.stdout, "FAIL  outbox ") || !strings.Contains(r.stdout, "X_OUTBOX_BROKER_UNAVAILABLE") ||
		strings.Contains(r.stdout+r.stderr, "s3cret") {
		t.Fatalf("pipe verify of an outbox whose broker does not answer: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
