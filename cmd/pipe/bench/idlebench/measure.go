package idlebench

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/cmd/pipe/bench/benchcpu"
)

// measure runs one component alone on a fresh database: warm-up, then the
// window, then (for the relay) the pickup samples.
func measure(ctx context.Context, admin *pgxpool.Pool, o Options, name string, start starter) (Figure, *Pickup, error) {
	db, err := freshDB(ctx, admin, name)
	if err != nil {
		return Figure{}, nil, err
	}
	defer db.drop()
	txs := &txCounter{}
	cfg := db.cfg.Copy()
	cfg.ConnConfig.Tracer = txs
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return Figure{}, nil, err
	}
	defer pool.Close()
	wake := newWakeLog(o.Logger.Handler())
	c, err := start(ctx, pool, withWake(o, wake))
	if err != nil {
		return Figure{}, nil, err
	}
	defer c.stop()
	f, err := window(ctx, db, admin, txs, o)
	if err != nil {
		return Figure{}, nil, err
	}
	f.Component, f.Wake, f.Target, f.Note = name, wake.state(), TargetTxPerMin, c.note
	var pickup *Pickup
	if c.pickup != nil {
		if pickup, err = c.pickup(ctx, o.Samples); err != nil {
			return Figure{}, nil, err
		}
	}
	return f, pickup, nil
}

// window waits out the warm-up and counts the window's transactions and
// CPU. Both readings of the database's count lag its sessions' by about
// the same (a session flushes its counts at the end of a transaction a
// second after its last flush, an idle one within 10 s), so their
// difference is the window's.
func window(ctx context.Context, db *database, admin *pgxpool.Pool, txs *txCounter, o Options) (Figure, error) {
	if err := sleep(ctx, o.Warmup); err != nil {
		return Figure{}, err
	}
	meter := benchcpu.NewDatabaseMeter(admin, db.name)
	server0, err := db.transactions(ctx)
	if err != nil {
		return Figure{}, err
	}
	client0 := txs.n.Load()
	proc0, dbcpu0 := meter.Read(ctx)
	if err := sleep(ctx, o.Window); err != nil {
		return Figure{}, err
	}
	proc1, dbcpu1 := meter.Read(ctx)
	client1 := txs.n.Load()
	server1, err := db.transactions(ctx)
	if err != nil {
		return Figure{}, err
	}
	perMin := time.Minute.Seconds() / o.Window.Seconds()
	return Figure{
		TxPerMin:       float64(server1-server0) * perMin,
		ClientTxPerMin: float64(client1-client0) * perMin,
		ProcessCPUMs:   float64(proc1-proc0) / 1e6 * perMin,
		DatabaseCPUMs:  float64(dbcpu1-dbcpu0) / 1e6 * perMin,
		CPUKnown:       meter.Known(),
	}, nil
}

// line is a figure's printed line; worker is the stock worker's figure
// when one was measured, for a component that runs on one.
func line(f Figure, worker *Figure) string {
	cpu := fmt.Sprintf("CPU %.1f ms/min in pipe, %.1f ms/min in its database sessions", f.ProcessCPUMs, f.DatabaseCPUMs)
	if !f.CPUKnown {
		cpu = fmt.Sprintf("CPU %.1f ms/min in pipe (its database sessions' unreadable here)", f.ProcessCPUMs)
	}
	wake := ""
	if f.Wake != "" {
		wake = "; wake " + f.Wake
	}
	own := ""
	if worker != nil && f.OnWorker {
		own = fmt.Sprintf(" [its own over the stock worker's: %.1f, %.1f begun]", f.TxPerMin-worker.TxPerMin, f.ClientTxPerMin-worker.ClientTxPerMin)
	}
	return fmt.Sprintf("%-9s %5.1f transactions/min in the database, %5.1f begun by its connections (target ≤ %.0f)%s; %s%s — %s",
		f.Component, f.TxPerMin, f.ClientTxPerMin, f.Target, own, cpu, wake, f.Note)
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
