package outbox_test

import (
	"context"
	"fmt"
	"net"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/outbox"
)

// outage is how long the broker stays away: the 30 seconds.
const outage = 30 * time.Second

// The broker — a NATS server of the test's own — stopped for 30 seconds
// while the app goes on staging messages (20 a second) and started again on
// its store: the relay catches up within its longest retry wait of the
// broker's return, and JetStream holds every committed message once, in
// order.
func TestRelayRidesOutABrokerOutage(t *testing.T) {
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
	var mu sync.Mutex
	staged := 0
	stage := func(n int) {
		mu.Lock()
		defer mu.Unlock()
		for range n {
			if _, err := outbox.Stage(ctx, pool, outbox.Message{Stream: "orders", Payload: fmt.Appendf(nil, "m%d", staged)}); err != nil {
				t.Error(err)
				return
			}
			staged++
		}
	}
	stage(300)
	waitFor(t, "some messages published before the stop", func() bool {
		return count(t, pool, `select count(*) from pipe.outbox o where `+published) > 0
	})
	srv.Shutdown()
	srv.WaitForShutdown()
	away := time.Now()
	for time.Since(away) < outage { // the app does not stop for the broker
		stage(1)
		time.Sleep(50 * time.Millisecond)
	}
	if n := count(t, pool, `select count(*) from pipe.outbox o where not `+published); n < 500 {
		t.Fatalf("%d messages wait after the outage; want the ones staged while the broker was away", n)
	}
	privateNATS(t, dir, port)
	back := time.Now()
	stage(300)
	waitFor(t, "every message published after the broker came back", func() bool {
		return count(t, pool, `select count(*) from pipe.outbox o where not `+published) == 0
	})
	caughtUp := time.Since(back)
	t.Logf("%d messages, broker away %s, caught up %s after it came back", staged, outage, caughtUp.Round(time.Millisecond))
	if limit := outbox.DefaultRetryMaxDelay + 10*time.Second; caughtUp > limit {
		t.Fatalf("caught up %s after the broker came back; want within %s (the relay's longest retry wait, and slack)", caughtUp, limit)
	}
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
