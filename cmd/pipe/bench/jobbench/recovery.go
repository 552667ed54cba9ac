package jobbench

import (
	"context"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// recoveryPoll is how often a recovery sample reads the worker's claim
// count: the figure's resolution.
const recoveryPoll = time.Millisecond

// recovery is what a user feels of a cut, with a worker at pipe worker's
// defaults over a pool through a proxy: the time from a cut of every
// connection to the worker's next successful claim, over RecoveryCuts
// cuts one CutEvery apart, and the work-down of no-op jobs under those cuts
// beside one without cuts, through the same proxy, in the same run.
func (b *bench) recovery(ctx context.Context, name string) (Figure, error) {
	proxied, proxy, err := b.proxiedPool(ctx)
	if err != nil {
		return Figure{}, err
	}
	defer proxy.Close()
	defer proxied.Close()
	calm, err := b.workDownOn(ctx, proxied, name+".calm", b.o.N, nil)
	if err != nil {
		return Figure{}, err
	}
	// The cut work-down must last through every cut: at the calm rate,
	// twice RecoveryCuts beats and two more (a worker that recovers fast
	// works down near its calm rate, and a cut is timed only when a claim
	// follows it).
	// A calm rate read on a small N undercounts a warm worker's: a backlog
	// that still ran out is doubled and worked down again, at most thrice.
	n := max(b.o.N, int(math.Ceil(perSecond(b.o.N, calm)*b.o.CutEvery.Seconds()*float64(2*b.o.RecoveryCuts+2))))
	for range recoveryTries {
		proxied.Reset() // a round's last cut may have left the pool's connections dead
		var lat []time.Duration
		cuts := proxy.Cuts()
		cut, err := b.workDownOn(ctx, proxied, name+".cut", n, func(w *pipeline.Worker, done func() bool) {
			lat = b.cutAndTime(ctx, proxy, w, done)
		})
		if err != nil {
			return Figure{}, err
		}
		if len(lat) >= b.o.RecoveryCuts {
			return b.recoveryFigure(lat, b.o.N, calm, n, cut, proxy.Cuts()-cuts), nil
		}
		n *= 2
	}
	return Figure{}, fmt.Errorf("fewer than %d cuts timed before a backlog of %d ran out", b.o.RecoveryCuts, n/2)
}

// recoveryTries bounds the cut work-downs of the recovery figure.
const recoveryTries = 3

// workDownOn enqueues n no-op jobs named name (not timed), then times a
// worker at pipe worker's defaults over pool until every run settled,
// with during running beside it when set. It checks every run ended done
// once, on its first attempt, and cleans the rows.
func (b *bench) workDownOn(ctx context.Context, pool *pgxpool.Pool, name string, n int,
	during func(w *pipeline.Worker, done func() bool)) (time.Duration, error) {
	if err := b.cleanup(ctx, name); err != nil {
		return 0, err
	}
	defer func() {
		cctx := context.WithoutCancel(ctx)
		if b.cleanup(cctx, name) == nil && !b.o.NoVacuum {
			b.vacuum(cctx)
		}
	}()
	job, err := b.declare(name, func(context.Context, *pipeline.Run[input]) (none, error) { return none{}, nil })
	if err != nil {
		return 0, err
	}
	if err := b.enqueueAll(ctx, job, n); err != nil {
		return 0, err
	}
	w, err := b.defaultWorkerOn(pool, job)
	if err != nil {
		return 0, err
	}
	t0 := time.Now()
	stop, err := b.started(ctx, w)
	if err != nil {
		return 0, err
	}
	defer func() { _ = stop() }()
	finished := make(chan struct{})
	duringDone := make(chan struct{})
	go func() {
		defer close(duringDone)
		if during != nil {
			during(w, func() bool {
				select {
				case <-finished:
					return true
				default:
					return false
				}
			})
		}
	}()
	err = b.waitFor(ctx, "runs settled", w.Stats().Completed.Load, int64(n))
	d := time.Since(t0)
	close(finished)
	<-duringDone
	if err != nil {
		return 0, err
	}
	if err := stop(); err != nil {
		return 0, err
	}
	return d, b.checkOnce(ctx, name, n)
}

// cutAndTime cuts every connection through proxy one CutEvery apart (or
// once the last cut's claim came, when that is later) until done, and
// answers, for each cut made while work was left, the time from the cut to
// the worker's next successful claim.
func (b *bench) cutAndTime(ctx context.Context, proxy *fixtures.Proxy, w *pipeline.Worker, done func() bool) []time.Duration {
	var lat []time.Duration
	next := time.Now().Add(b.o.CutEvery)
	for !done() && ctx.Err() == nil {
		if sleep(ctx, time.Until(next)) != nil {
			return lat
		}
		at := time.Now()
		proxy.Cut()
		claimed := w.Stats().Claimed.Load()
		next = at.Add(b.o.CutEvery)
		for w.Stats().Claimed.Load() == claimed && !done() {
			if sleep(ctx, recoveryPoll) != nil {
				return lat
			}
		}
		if done() {
			return lat
		}
		lat = append(lat, time.Since(at))
	}
	return lat
}

// checkOnce checks that the n runs named name all ended done, on their
// first attempt.
func (b *bench) checkOnce(ctx context.Context, name string, n int) error {
	var done, first int
	err := b.pool.QueryRow(ctx, `select count(*) filter (where state = 'done'), count(*) filter (where state = 'done' and attempt = 1)
		from pipe.jobs where name = $1`, name).Scan(&done, &first)
	if err != nil {
		return err
	}
	if done != n || first != n {
		return fmt.Errorf("%s: %d of %d done, %d on their first attempt", name, done, n, first)
	}
	return nil
}

// recoveryFigure orders the samples and prints the figure's line.
func (b *bench) recoveryFigure(lat []time.Duration, calmN int, calm time.Duration, cutN int, cut time.Duration, conns int) Figure {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	f := Figure{Count: cutN, Elapsed: cut, Rate: perSecond(cutN, cut), CalmRate: perSecond(calmN, calm),
		Samples: len(lat), Median: lat[len(lat)/2], P99: lat[min(len(lat)-1, len(lat)*99/100)], Max: lat[len(lat)-1]}
	f.Line = fmt.Sprintf("%s: cut to next claim p50 %s p99 %s max %s (n=%d, every connection cut each %s, %d connections cut); "+
		"work-down %.0f jobs/s under the cuts (%d no-op jobs), %.0f jobs/s without (%d), %.2fx; "+
		"pipe worker's defaults, pool through a proxy; every run done once, on its first attempt",
		FigureRecovery, ms(f.Median), ms(f.P99), ms(f.Max), f.Samples, b.o.CutEvery, conns,
		f.Rate, cutN, f.CalmRate, calmN, f.Rate/f.CalmRate)
	return f
}
