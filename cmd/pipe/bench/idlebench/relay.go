package idlebench

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/outbox"
)

// stream is the relay's one stream.
const stream = "idle"

// sink is a publisher that remembers when each message came.
type sink struct {
	mu   sync.Mutex
	seen map[string]time.Time
}

func (s *sink) Publish(_ context.Context, batch []outbox.Envelope) error {
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range batch {
		s.seen[e.ID] = now
	}
	return nil
}

func (s *sink) Close() error { return nil }

func (s *sink) at(id string) (time.Time, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.seen[id]
	return t, ok
}

func startRelay(ctx context.Context, pool *pgxpool.Pool, o Options) (*component, error) {
	pub := &sink{seen: map[string]time.Time{}}
	relay, err := outbox.New(outbox.Options{Streams: []outbox.Stream{{Name: stream}}, Publisher: pub, Logger: o.Logger})
	if err != nil {
		return nil, err
	}
	stop, err := startWorker(ctx, pool, o, relay.Jobs()...)
	if err != nil {
		return nil, err
	}
	if _, err := relay.Arm(ctx, pool); err != nil {
		stop()
		return nil, err
	}
	return &component{stop: stop, note: "an outbox relay of one stream (default settings), on a stock worker",
		pickup: func(ctx context.Context, samples int) (*Pickup, error) { return pickup(ctx, pool, pub, samples) }}, nil
}

// pickupIdle is how long the relay is left idle before each sample: its
// wait has grown from 10 ms past 2.5 s, so a pickup within the target is
// the wake's, not the poll's.
const pickupIdle = 6 * time.Second

// pickup stages samples messages, each after pickupIdle of quiet, and
// times each from its staging (its round trip and commit included) to its
// publish.
func pickup(ctx context.Context, pool *pgxpool.Pool, pub *sink, samples int) (*Pickup, error) {
	var took []time.Duration
	for range samples {
		if err := sleep(ctx, pickupIdle); err != nil {
			return nil, err
		}
		committed := time.Now() // before the staging's round trip: the figure errs high
		id, err := outbox.Stage(ctx, pool, outbox.Message{Stream: stream, Payload: []byte("idle")})
		if err != nil {
			return nil, err
		}
		deadline := committed.Add(30 * time.Second)
		for {
			if at, ok := pub.at(id); ok {
				took = append(took, max(at.Sub(committed), 0))
				break
			}
			if time.Now().After(deadline) {
				return nil, fmt.Errorf("a staged message not published within 30 s")
			}
			if err := sleep(ctx, time.Millisecond); err != nil {
				return nil, err
			}
		}
	}
	slices.Sort(took)
	p := &Pickup{Samples: len(took), P50Ms: ms(quantile(took, 0.5)), P90Ms: ms(quantile(took, 0.9)), MaxMs: ms(took[len(took)-1]), Target: TargetPickupMs}
	p.Line = fmt.Sprintf("relay pickup of a staged message, idle %s before each (%d samples): p50 %.1f ms, p90 %.1f ms, max %.1f ms (target ≤ %d ms)",
		pickupIdle, p.Samples, p.P50Ms, p.P90Ms, p.MaxMs, TargetPickupMs)
	return p, nil
}

func quantile(sorted []time.Duration, q float64) time.Duration {
	return sorted[min(len(sorted)-1, int(q*float64(len(sorted))))]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
