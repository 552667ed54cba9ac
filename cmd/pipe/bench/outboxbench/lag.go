package outboxbench

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go/jetstream"
	"golang.org/x/sync/errgroup"

	"github.com/pipekit/pipe/outbox"
)

// lag stages o.Rate rows a second for o.Duration, one transaction each,
// with the relay running, and measures each message from just before its
// staging commit to its arrival at a consumer of the broker.
func lag(ctx context.Context, pool *pgxpool.Pool, js jetstream.JetStream, o Options, emit func(Figure)) error {
	if err := freshStream(ctx, pool, js); err != nil {
		return err
	}
	stream := name + "-lag"
	relay, stop, err := startRelay(ctx, pool, js, o, 500, stream)
	if err != nil {
		return err
	}
	defer stop()
	if _, err := relay.Arm(ctx, pool); err != nil {
		return err
	}
	total := int(float64(o.Rate) * o.Duration.Seconds())
	got := make(chan time.Duration, total)
	c, err := js.OrderedConsumer(ctx, jsName, jetstream.OrderedConsumerConfig{})
	if err != nil {
		return err
	}
	cc, err := c.Consume(func(m jetstream.Msg) {
		ns, _ := strconv.ParseInt(m.Headers().Get("t0"), 10, 64)
		got <- time.Since(time.Unix(0, ns))
	})
	if err != nil {
		return err
	}
	defer cc.Stop()
	cfg := pool.Config()
	cfg.MaxConns = 20 // the staging lanes' own: the relay's worker keeps the bench pool
	lanes, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return err
	}
	defer lanes.Close()
	began := time.Now()
	if err := stageSteadily(ctx, lanes, stream, o.Rate, total); err != nil {
		return err
	}
	achieved := float64(total) / time.Since(began).Seconds()
	lags := make([]time.Duration, 0, total)
	timeout := time.After(60 * time.Second)
	for len(lags) < total {
		select {
		case d := <-got:
			lags = append(lags, d)
		case <-timeout:
			return fmt.Errorf("bench outbox: %d of %d messages arrived within a minute", len(lags), total)
		}
	}
	slices.Sort(lags)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	f := Figure{Name: "lag", Rows: total, Rate: achieved, P50Ms: ms(lags[total/2]), P99Ms: ms(lags[total*99/100]), MaxMs: ms(lags[total-1])}
	f.Line = fmt.Sprintf("end-to-end lag at %d rows/s for %s (%d rows, staged at %.0f rows/s; from the staging to a consumer of JetStream): p50 %.1f ms, p99 %.1f ms, max %.1f ms",
		o.Rate, o.Duration, total, achieved, f.P50Ms, f.P99Ms, f.MaxMs)
	emit(f)
	return nil
}

// stageSteadily stages total rows, row i due at start + i/rate, one
// transaction each, from 16 goroutines (so that a slow commit does not
// hold the rate back); each message carries the time of its staging in
// header t0.
func stageSteadily(ctx context.Context, pool *pgxpool.Pool, stream string, rate, total int) error {
	start := time.Now()
	g, ctx := errgroup.WithContext(ctx)
	const lanes = 16
	for lane := range lanes {
		g.Go(func() error {
			for i := lane; i < total; i += lanes {
				time.Sleep(time.Until(start.Add(time.Duration(i) * time.Second / time.Duration(rate))))
				tx, err := pool.Begin(ctx)
				if err != nil {
					return err
				}
				m := outbox.Message{Stream: stream, Headers: map[string]string{"t0": strconv.FormatInt(time.Now().UnixNano(), 10)}, Payload: payload}
				if _, err := outbox.Stage(ctx, tx, m); err != nil {
					_ = tx.Rollback(ctx)
					return err
				}
				if err := tx.Commit(ctx); err != nil {
					return err
				}
			}
			return nil
		})
	}
	return g.Wait()
}
