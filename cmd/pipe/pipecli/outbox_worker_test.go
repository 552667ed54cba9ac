package pipecli_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
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
