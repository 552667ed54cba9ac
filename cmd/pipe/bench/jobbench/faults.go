package jobbench

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// workCut is the work figure with the database's connections cut: the
// worker's pool reaches the server through a proxy that resets every
// connection once each CutEvery. It counts what a user would check after an
// outage: every job done once, on its first attempt, none dead.
func (b *bench) workCut(ctx context.Context, name string) (Figure, error) {
	proxied, proxy, err := b.proxiedPool(ctx)
	if err != nil {
		return Figure{}, err
	}
	defer proxy.Close()
	defer proxied.Close()
	var worked atomic.Int64
	job, err := b.declare(name, func(context.Context, *pipeline.Run[input]) (none, error) {
		worked.Add(1)
		return none{}, nil
	})
	if err != nil {
		return Figure{}, err
	}
	if err := b.enqueueAll(ctx, job, b.o.N); err != nil {
		return Figure{}, err
	}
	w, err := b.workerOn(proxied, job, b.o.Slots)
	if err != nil {
		return Figure{}, err
	}
	// The cuts begin once the worker has started: a start checks the
	// database (the pooler probe, the grants) and refuses on a connection
	// a cut took, as a user's would; the figure is the work under cuts
	// (a CI run's start met one).
	t0 := time.Now()
	stop, err := b.started(ctx, w)
	if err != nil {
		return Figure{}, err
	}
	stopCuts := proxy.CutEvery(b.o.CutEvery)
	err = b.waitFor(ctx, "runs settled", func() int64 { return w.Stats().Completed.Load() }, int64(b.o.N))
	d := time.Since(t0)
	stopCuts()
	_ = stop()
	if err != nil {
		return Figure{}, err
	}
	return b.cutFigure(ctx, name, d, worked.Load(), proxy.Cuts())
}

// cutFigure checks the rows a cut work-down left and prints its line.
func (b *bench) cutFigure(ctx context.Context, name string, d time.Duration, bodies int64, cuts int) (Figure, error) {
	var done, first, dead int
	err := b.pool.QueryRow(ctx, `select count(*) filter (where state = 'done'), count(*) filter (where state = 'done' and attempt = 1),
		count(*) filter (where state in ('dead', 'failed')) from pipe.jobs where name = $1`, name).Scan(&done, &first, &dead)
	if err != nil {
		return Figure{}, err
	}
	if done != b.o.N || first != b.o.N || dead != 0 {
		return Figure{}, fmt.Errorf("after the cuts: %d of %d done, %d on their first attempt, %d dead", done, b.o.N, first, dead)
	}
	f := Figure{Count: b.o.N, Elapsed: d, Rate: perSecond(b.o.N, d)}
	f.Line = fmt.Sprintf("work-cut: %.0f jobs/s (%d no-op jobs, %d slots, every connection cut each %s: %d connections cut; "+
		"all %d done once on their first attempt, none dead; %d bodies run)",
		f.Rate, b.o.N, b.o.Slots, b.o.CutEvery, cuts, done, bodies)
	return f, nil
}

// proxiedPool answers a pool like the bench's whose connections go through
// a fault-injecting proxy of its own.
func (b *bench) proxiedPool(ctx context.Context) (*pgxpool.Pool, *fixtures.Proxy, error) {
	cfg := b.pool.Config()
	proxy, err := fixtures.NewProxy(fmt.Sprintf("%s:%d", cfg.ConnConfig.Host, cfg.ConnConfig.Port))
	if err != nil {
		return nil, nil, err
	}
	pcfg, err := pgxpool.ParseConfig(proxy.URL(cfg.ConnString()))
	if err != nil {
		_ = proxy.Close()
		return nil, nil, err
	}
	pcfg.MaxConns = cfg.MaxConns
	pool, err := pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		_ = proxy.Close()
		return nil, nil, err
	}
	return pool, proxy, nil
}
