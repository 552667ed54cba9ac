package project_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/outbox"
	"github.com/pipekit/pipe/project"
)

// A pipe.json outbox, its broker named through an environment variable,
// becomes a relay whose jobs a worker runs: a committed message reaches
// JetStream. A file naming an ordering pipe does not know, or an unset
// variable, is X_OUTBOX_INVALID.
func TestAProjectFileDeclaresTheOutboxRelay(t *testing.T) {
	nc, err := nats.Connect("nats://127.0.0.1:4222")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	name := "PIPE_PROJECT_OUTBOX_" + time.Now().Format("150405000000")
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: name, Subjects: []string{name + ".>"}, Storage: jetstream.MemoryStorage}); err != nil {
		t.Fatal(err)
	}
	defer js.DeleteStream(ctx, name)
	t.Setenv("PIPE_TEST_BROKER", "nats://127.0.0.1:4222?prefix="+name)
	dir := t.TempDir()
	write := func(body string) string {
		path := filepath.Join(dir, "pipe.json")
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	p, err := project.Load(write(`{"outbox": {"broker": "$PIPE_TEST_BROKER", "streams": [{"name": "orders", "ordering": "key"}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	pool := fixtures.DB(t)
	fixtures.StartWorker(t, pool, p.Jobs()...)
	if len(p.Tasks) != 2 || p.Relay == nil {
		t.Fatalf("the file declared %d tasks and relay %v; want the relay, its supervisor and its prune task", len(p.Tasks), p.Relay)
	}
	if _, err := p.Relay.Arm(ctx, pool); err != nil {
		t.Fatal(err)
	}
	if _, err := outbox.Stage(ctx, pool, outbox.Message{Stream: "orders", Payload: []byte("hello")}); err != nil {
		t.Fatal(err)
	}
	st, err := js.Stream(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		info, err := st.Info(ctx)
		if err == nil && info.State.Msgs == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the message did not reach JetStream within a minute")
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, body := range []string{
		`{"outbox": {"broker": "nats://127.0.0.1:4222", "streams": [{"name": "orders", "ordering": "sideways"}]}}`,
		`{"outbox": {"broker": "$PIPE_TEST_UNSET_BROKER", "streams": [{"name": "orders"}]}}`,
		`{"outbox": {"broker": "redis://127.0.0.1", "streams": [{"name": "orders"}]}}`,
	} {
		if _, err := project.Load(write(body)); !errors.Is(err, errcode.OutboxInvalid) {
			t.Fatalf("a bad outbox: %v", err)
		}
	}
}
