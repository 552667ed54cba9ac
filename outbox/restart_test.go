package outbox_test

import (
	"context"
	"fmt"
	"net"
	"slices"
	"testing"
	"time"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/outbox"
)

// The broker — a NATS server of the test's own — stopped while messages are
// staged and relayed, and started again a few seconds later on its store:
// the relay catches up, and JetStream holds every committed message once,
// in order.
func TestRelayRidesOutABrokerRestart(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := context.Background()
	dir, port := t.TempDir(), freePort(t)
	srv := privateNATS(t, dir, port)
	js := newJSStream(t, srv.ClientURL(), 0)
	relay := outbox.MustNew(outbox.Options{Streams: []outbox.Stream{{Name: "orders"}}, Publisher: js.publisher(t), Batch: 50})
	if _, err := relay.Arm(ctx, pool); err != nil {
		t.Fatal(err)
	}
	fixtures.StartWorker(t, pool, relay.Jobs()...)
	staged := 0
	stage := func(n int) {
		for range n {
			if _, err := outbox.Stage(ctx, pool, outbox.Message{Stream: "orders", Payload: fmt.Appendf(nil, "m%d", staged)}); err != nil {
				t.Fatal(err)
			}
			staged++
		}
	}
	stage(300)
	waitFor(t, "some messages published before the stop", func() bool {
		return count(t, pool, `select count(*) from pipe.outbox where published_at is not null`) > 0
	})
	srv.Shutdown()
	srv.WaitForShutdown()
	stage(300)
	time.Sleep(3 * time.Second) // the broker stays away a while: the relay's attempts fail meanwhile
	privateNATS(t, dir, port)
	stage(300)
	waitFor(t, "every message published after the restart", func() bool {
		return count(t, pool, `select count(*) from pipe.outbox where published_at is null`) == 0
	})
	var bodies []string
	for _, m := range js.messages(t) {
		bodies = append(bodies, m.body)
	}
	var want []string
	for i := range staged {
		want = append(want, fmt.Sprintf("m%d", i))
	}
	if !slices.Equal(bodies, want) {
		t.Fatalf("JetStream holds %d messages; want the %d staged, once each, in order", len(bodies), len(want))
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
