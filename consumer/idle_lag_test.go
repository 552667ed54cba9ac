package consumer_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/consumer"
	"github.com/pipekit/pipe/fixtures"
)

// A run whose feed stays quiet measures its lag once, then at most every
// IdleLagEvery, however short LagEvery: an idle run costs no transaction a
// LagEvery.
func TestAQuietRunMeasuresItsLagRarely(t *testing.T) {
	pool := setup(t)
	fs := &feeds{newFeed: func(_ string, cursor int64) *seqFeed { return newSeqFeed(cursor, 0, false) }}
	o := options("quiet", fs, "k")
	var measures atomic.Int64
	o.Lag = func(context.Context, pgx.Tx, string, int64) (int64, error) {
		measures.Add(1)
		return 0, nil
	}
	o.LagEvery = time.Second
	c := consumer.MustNew(o)
	if _, err := c.Enqueue(context.Background(), pool, "k"); err != nil {
		t.Fatal(err)
	}
	fixtures.StartWorker(t, pool, c.Jobs()...)
	deadline := time.Now().Add(30 * time.Second)
	for measures.Load() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the lag was not measured within 30 s of the run's start")
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(5 * time.Second) // five LagEvery, all quiet
	if n := measures.Load(); n != 1 {
		t.Fatalf("the lag measured %d times in 5 s of a quiet feed; want once (LagEvery 1s would make 5)", n)
	}
}
