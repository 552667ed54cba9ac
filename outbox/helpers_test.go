package outbox_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/pipekit/pipe/outbox"
	"github.com/pipekit/pipe/outbox/natsjs"
)

// sharedNATS answers the machine's NATS server (NATS_URL, else
// 127.0.0.1:4222 if it answers), else one started in this process.
func sharedNATS(t *testing.T) string {
	t.Helper()
	if u := os.Getenv("NATS_URL"); u != "" {
		return u
	}
	if c, err := net.DialTimeout("tcp", "127.0.0.1:4222", 200*time.Millisecond); err == nil {
		_ = c.Close()
		return "nats://127.0.0.1:4222"
	}
	return privateNATS(t, t.TempDir(), -1).ClientURL()
}

// privateNATS starts a JetStream server of this test's own, one it may stop
// and start again (on port, keeping dir) without touching anyone else's.
func privateNATS(t *testing.T, dir string, port int) *server.Server {
	t.Helper()
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: port, JetStream: true, StoreDir: dir, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	go s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		t.Fatal("the in-process NATS server did not start")
	}
	t.Cleanup(s.Shutdown)
	return s
}

// jsStream is a test's JetStream stream, under a name of its own; the
// outbox stream s is published on subject <name>.s.
type jsStream struct {
	url  string
	js   jetstream.JetStream
	name string
}

func newJSStream(t *testing.T, url string, maxMsgSize int32) *jsStream {
	t.Helper()
	nc, err := nats.Connect(url, nats.MaxReconnects(-1), nats.ReconnectWait(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := "PIPE_OUTBOX_" + strings.ToUpper(hex.EncodeToString(b))
	ctx := context.Background()
	cfg := jetstream.StreamConfig{Name: name, Subjects: []string{name + ".>"}, Storage: jetstream.FileStorage, MaxMsgSize: maxMsgSize, Duplicates: 10 * time.Minute}
	if _, err := js.CreateStream(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = js.DeleteStream(context.Background(), name) })
	return &jsStream{url: url, js: js, name: name}
}

// publisher answers a publisher onto the test's stream.
func (s *jsStream) publisher(t *testing.T) outbox.Publisher {
	t.Helper()
	p, err := natsjs.Dial(s.url, natsjs.Options{Subject: func(e outbox.Envelope) string { return s.name + "." + e.Stream }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p
}

// received is one message as the broker stored it.
type received struct {
	id, key, body string
}

// messages reads every message the stream stored, in stream order, through
// an ordered consumer of the broker.
func (s *jsStream) messages(t *testing.T) []received {
	t.Helper()
	ctx := context.Background()
	st, err := s.js.Stream(ctx, s.name)
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	n := int(info.State.Msgs)
	if n == 0 {
		return nil
	}
	c, err := st.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	var out []received
	for len(out) < n {
		batch, err := c.Fetch(n-len(out), jetstream.FetchMaxWait(5*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		for m := range batch.Messages() {
			out = append(out, received{id: m.Headers().Get("Nats-Msg-Id"), key: m.Headers().Get("key"), body: string(m.Data())})
		}
		if batch.Error() != nil {
			t.Fatal(batch.Error())
		}
	}
	return out
}

// waitFor polls cond every 20 ms until it holds or a minute passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within a minute", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// published is the condition of a published row of pipe.outbox o: no
// fault, and passed by its stream's newest batch.
const published = `(o.fault is null and o.id <= coalesce((select b.upto from pipe.outbox_batches b
	where b.stream = o.stream order by b.published_at desc, b.upto desc limit 1), 0))`

// count answers a count query's answer.
func count(t *testing.T, pool *pgxpool.Pool, sql string, args ...any) int {
	t.Helper()
	var n int
	if err := pool.QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// duplicates answers the stream's duplicate window.
func (s *jsStream) duplicates(t *testing.T) time.Duration {
	t.Helper()
	st, err := s.js.Stream(context.Background(), s.name)
	if err != nil {
		t.Fatal(err)
	}
	return st.CachedInfo().Config.Duplicates
}
