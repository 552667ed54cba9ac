package jetstream_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	js "github.com/nats-io/nats.go/jetstream"

	"github.com/pipekit/pipe/consumer/jetstream"
	"github.com/pipekit/pipe/pipeline"
)

// natsURL answers a real NATS server with JetStream: NATS_URL if set, else
// 127.0.0.1:4222 if it answers, else one started in this process for the
// test. Never a mock.
func natsURL(t *testing.T) string {
	t.Helper()
	if u := os.Getenv("NATS_URL"); u != "" {
		return u
	}
	if c, err := net.DialTimeout("tcp", "127.0.0.1:4222", 200*time.Millisecond); err == nil {
		_ = c.Close()
		return "nats://127.0.0.1:4222"
	}
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(), NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	go s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		t.Fatal("the in-process NATS server did not start")
	}
	t.Cleanup(s.Shutdown)
	return s.ClientURL()
}

// stream is one test's stream on the server, under a name of its own (the
// server may be shared), deleted when the test ends.
type stream struct {
	url    string
	nc     *nats.Conn
	js     js.JetStream
	name   string
	prefix string // every subject of the stream starts with it
}

// newStream makes a stream of limits retention (the default).
func newStream(t *testing.T) *stream {
	t.Helper()
	return newStreamOf(t, js.LimitsPolicy)
}

// newStreamOf makes a stream of the given retention.
func newStreamOf(t *testing.T, retention js.RetentionPolicy) *stream {
	t.Helper()
	url := natsURL(t)
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	j, err := js.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := "PIPE_TEST_" + strings.ToUpper(hex.EncodeToString(b))
	ctx := context.Background()
	cfg := js.StreamConfig{Name: name, Subjects: []string{name + ".>"}, Storage: js.MemoryStorage, Retention: retention}
	if _, err := j.CreateStream(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = j.DeleteStream(context.Background(), name) })
	return &stream{url: url, nc: nc, js: j, name: name, prefix: name}
}

// retentions are the three retention policies of a stream, by name.
var retentions = []struct {
	name string
	js.RetentionPolicy
}{{"Limits", js.LimitsPolicy}, {"Interest", js.InterestPolicy}, {"WorkQueue", js.WorkQueuePolicy}}

// messages answers how many messages the stream holds.
func (s *stream) messages(t *testing.T) uint64 {
	t.Helper()
	st, err := s.js.Stream(context.Background(), s.name)
	if err != nil {
		t.Fatal(err)
	}
	return st.CachedInfo().State.Msgs
}

// durables answers the names of the stream's consumers.
func (s *stream) durables(t *testing.T) []string {
	t.Helper()
	st, err := s.js.Stream(context.Background(), s.name)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	names := st.ConsumerNames(context.Background())
	for n := range names.Name() {
		out = append(out, n)
	}
	if err := names.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// publish stores one message on subject (under the stream's prefix) and
// answers its stream sequence.
func (s *stream) publish(t *testing.T, subject, data string) uint64 {
	t.Helper()
	ack, err := s.js.Publish(context.Background(), s.prefix+"."+subject, []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	return ack.Sequence
}

func seqs(ms []jetstream.Message) []uint64 {
	out := make([]uint64, len(ms))
	for i, m := range ms {
		out[i] = m.Sequence
	}
	return out
}

// awaitTrue waits until ok answers true, for at most 30 seconds.
func awaitTrue(t *testing.T, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met after 30s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// storedCursor answers key's cursor as consumer.StoredCursor keeps it.
func storedCursor(t *testing.T, pool *pgxpool.Pool, key string) uint64 {
	t.Helper()
	var c uint64
	err := pool.QueryRow(context.Background(),
		`select coalesce((select cursor::bigint from pipe.consumer_cursors where key = $1), 0)`, key).Scan(&c)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func fixtureShow(pool *pgxpool.Pool, id string) (*pipeline.RunDetail, error) {
	return pipeline.NewAdmin(pool).Show(context.Background(), id)
}
