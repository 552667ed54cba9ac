package outbox_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/outbox"
	"github.com/pipekit/pipe/outbox/natsjs"
)

// The environment of the kill test's relay processes.
const (
	natsEnv   = "PIPE_TEST_NATS_URL"
	streamEnv = "PIPE_TEST_JS_STREAM"
	holdEnv   = "PIPE_TEST_HOLD"
)

// TestMain doubles as the kill test's relay processes (fixtures.StartChild).
func TestMain(m *testing.M) {
	fixtures.ChildMain(map[string]fixtures.ChildFunc{"relay": relayChild})
	os.Exit(m.Run())
}

// relayChild runs a worker over the relay until it is killed. With
// PIPE_TEST_HOLD set, its publisher stops after the broker took the first
// batch, before the batch is marked, and says so in held_batch: the test
// kills it there, mid-batch.
func relayChild(ctx context.Context, pool *pgxpool.Pool) error {
	name := os.Getenv(streamEnv)
	pub, err := natsjs.Dial(os.Getenv(natsEnv), natsjs.Options{Subject: func(e outbox.Envelope) string { return name + "." + e.Stream }})
	if err != nil {
		return err
	}
	var p outbox.Publisher = pub
	if os.Getenv(holdEnv) != "" {
		p = &holdingPublisher{Publisher: pub, pool: pool}
	}
	relay, err := outbox.New(outbox.Options{Streams: []outbox.Stream{{Name: "orders"}}, Publisher: p, Batch: 100})
	if err != nil {
		return err
	}
	return fixtures.WorkUntilKilled(ctx, pool, relay.Jobs()...)
}

// holdingPublisher publishes, records the batch's ids in held_batch and
// waits for its SIGKILL.
type holdingPublisher struct {
	outbox.Publisher
	pool *pgxpool.Pool
}

func (h *holdingPublisher) Publish(ctx context.Context, batch []outbox.Envelope) error {
	if err := h.Publisher.Publish(ctx, batch); err != nil {
		return err
	}
	ids := make([]string, len(batch))
	for i, e := range batch {
		ids[i] = e.ID
	}
	if _, err := h.pool.Exec(ctx, `insert into held_batch select unnest($1::uuid[])`, ids); err != nil {
		return err
	}
	select {}
}

// A relay SIGKILLed after the broker took a batch and before the batch was
// marked loses nothing: the next relay publishes the batch again and
// JetStream, recognising each Nats-Msg-Id, stores every message once.
func TestARelayKilledMidBatchPublishesEachMessageOnce(t *testing.T) {
	url := fixtures.DBURL(t)
	pool, err := pgxpool.New(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	ctx := context.Background()
	if _, err := pool.Exec(ctx, `create table held_batch (message_id uuid not null)`); err != nil {
		t.Fatal(err)
	}
	js := newJSStream(t, sharedNATS(t), 0)
	ms := make([]outbox.Message, 1000)
	for i := range ms {
		ms[i] = outbox.Message{Stream: "orders", Payload: fmt.Appendf(nil, "m%d", i)}
	}
	ids, err := outbox.StageMany(ctx, pool, ms)
	if err != nil {
		t.Fatal(err)
	}
	relay := outbox.MustNew(outbox.Options{Streams: []outbox.Stream{{Name: "orders"}}, Publisher: js.publisher(t)})
	if _, err := relay.Arm(ctx, pool); err != nil {
		t.Fatal(err)
	}
	env := []string{natsEnv + "=" + js.url, streamEnv + "=" + js.name}
	first := fixtures.StartChild(t, url, "relay", append(env, holdEnv+"=1")...)
	waitFor(t, "the first relay holding a batch the broker took", func() bool {
		return count(t, pool, `select count(*) from held_batch`) > 0
	})
	first.Kill(t)
	held := count(t, pool, `select count(*) from held_batch`)
	if n := count(t, pool, `select count(*) from pipe.outbox o join held_batch h using (message_id) where not `+published); n != held {
		t.Fatalf("%d of the %d rows of the killed batch are unmarked; want all: the kill came between the publish and the mark", n, held)
	}
	fixtures.StartChild(t, url, "relay", env...)
	waitFor(t, "every message published by the second relay", func() bool {
		return count(t, pool, `select count(*) from pipe.outbox o where not `+published) == 0
	})
	var got []string
	for _, m := range js.messages(t) {
		got = append(got, m.id)
	}
	if !slices.Equal(got, ids) {
		t.Fatalf("JetStream holds %d messages; want the %d staged, each once (the killed batch of %d deduplicated), in order", len(got), len(ids), held)
	}
}
