package storebench

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"sync/atomic"
	"time"
)

// enqueueBatch is the inputs per EnqueueMany call, as `pipe bench jobs`
// (and River's bench) enqueue.
const enqueueBatch = 1000

// Pass is one store's enqueue and work-down, over its rounds.
type Pass struct {
	// Store is "full" or "empty".
	Store string `json:"store"`
	Jobs  int    `json:"jobs"`
	// EnqueuePerSecond is the best round's EnqueueMany of Jobs no-op runs
	// with distinct keys, in batches of 1,000; EnqueueRounds every round's.
	EnqueuePerSecond float64   `json:"enqueuePerSecond"`
	EnqueueRounds    []float64 `json:"enqueueRounds"`
	// WorkPerSecond is the best round's work-down, timed from the worker's
	// start until every run's completion landed; WorkRounds every round's.
	WorkPerSecond float64   `json:"workPerSecond"`
	WorkRounds    []float64 `json:"workRounds"`
	// Claim is the claim statement's latency over every round's work-down
	// passes; Settle the settle statement's; EnqueueStatement the enqueue
	// statement's, 1,000 runs each.
	Claim            Latency `json:"claim"`
	Settle           Latency `json:"settle"`
	EnqueueStatement Latency `json:"enqueueStatement"`

	claims, settles, enqueues []time.Duration
}

// Throughput is the same passes in the full store and in an empty one,
// their rounds interleaved (full, empty, full, empty, …) so that the
// load a shared machine carries falls on both alike.
type Throughput struct {
	Full  Pass `json:"full"`
	Empty Pass `json:"empty"`
	// Rounds is how many rounds each store ran.
	Rounds int `json:"rounds"`
	// The ratios are the full store's figure over the empty one's.
	EnqueueRatio  float64 `json:"enqueueRatio"`
	WorkRatio     float64 `json:"workRatio"`
	ClaimP50Ratio float64 `json:"claimP50Ratio"`
	// Worker says how the worker was configured.
	Worker string `json:"worker"`
}

// throughput runs rounds rounds of n runs in full and in empty, in turn,
// and compares them.
func throughput(ctx context.Context, full, empty *scratch, n, rounds int, logger *slog.Logger) (Throughput, error) {
	t := Throughput{Full: Pass{Store: "full", Jobs: n}, Empty: Pass{Store: "empty", Jobs: n}, Rounds: rounds, Worker: shippedWorker}
	for r := range rounds {
		for _, st := range []struct {
			s *scratch
			p *Pass
		}{{full, &t.Full}, {empty, &t.Empty}} {
			if err := round(ctx, st.s, st.p, r, logger); err != nil {
				return t, fmt.Errorf("store bench: %s store, round %d: %w", st.p.Store, r+1, err)
			}
		}
	}
	for _, p := range []*Pass{&t.Full, &t.Empty} {
		p.EnqueuePerSecond, p.WorkPerSecond = slices.Max(p.EnqueueRounds), slices.Max(p.WorkRounds)
		p.Claim, p.Settle, p.EnqueueStatement = latency(p.claims), latency(p.settles), latency(p.enqueues)
	}
	t.EnqueueRatio = ratio(t.Full.EnqueuePerSecond, t.Empty.EnqueuePerSecond)
	t.WorkRatio = ratio(t.Full.WorkPerSecond, t.Empty.WorkPerSecond)
	t.ClaimP50Ratio = ratio(t.Full.Claim.P50Ms, t.Empty.Claim.P50Ms)
	return t, nil
}

// round enqueues p.Jobs no-op runs of a job of the round's own into s with
// EnqueueMany (timed), then works them down with a worker as `pipe worker`
// makes one (timed until the last completion landed), checks that every
// one is done and adds the figures to p.
func round(ctx context.Context, s *scratch, p *Pass, r int, logger *slog.Logger) error {
	n := p.Jobs
	var ran atomic.Int64
	name := noopName + "." + strconv.Itoa(r+1)
	job, err := noopJob(name, benchQueue, &ran)
	if err != nil {
		return err
	}
	s.timer.take()
	t0 := time.Now()
	batch := make([]input, 0, enqueueBatch)
	for lo := 0; lo < n; lo += enqueueBatch {
		batch = batch[:0]
		for i := lo; i < min(lo+enqueueBatch, n); i++ {
			batch = append(batch, input{I: i + 1})
		}
		res, err := job.EnqueueMany(ctx, s.pool, batch)
		if err != nil {
			return fmt.Errorf("enqueue: %w", err)
		}
		for _, r := range res {
			if r.Deduped {
				return fmt.Errorf("enqueue: run %s deduped", r.ID)
			}
		}
	}
	p.EnqueueRounds = append(p.EnqueueRounds, perSecond(n, time.Since(t0)))
	p.enqueues = append(p.enqueues, ofKind(s.timer.take(), kindEnqueue)...)

	t0 = time.Now()
	w, stop, err := startWorker(ctx, s.pool, job, logger)
	if err != nil {
		return err
	}
	defer func() { _ = stop() }()
	if err := waitFor(ctx, "completions landed", w.Stats().Completed.Load, int64(n)); err != nil {
		return err
	}
	p.WorkRounds = append(p.WorkRounds, perSecond(n, time.Since(t0)))
	if err := stop(); err != nil {
		return err
	}
	seen := s.timer.take()
	p.claims, p.settles = append(p.claims, ofKind(seen, kindClaim)...), append(p.settles, ofKind(seen, kindComplete)...)
	var done int
	if err := s.pool.QueryRow(ctx, `select count(*) from pipe.runs where name = $1 and state = 'done'`, name).Scan(&done); err != nil {
		return err
	}
	if done != n || ran.Load() != int64(n) {
		return fmt.Errorf("%d of %d runs done after the work-down, %d bodies ran", done, n, ran.Load())
	}
	return nil
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}
