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
	if err := sleep(ctx, o.Warmup); err != nil {
		c.stop()
		return Figure{}, nil, err
	}
	meter := benchcpu.NewDatabaseMeter(admin, db.name)
	server0, err := db.transactions(ctx)
	if err != nil {
		c.stop()
		return Figure{}, nil, err
	}
	client0 := txs.n.Load()
	proc0, dbcpu0 := meter.Read(ctx)
	if err := sleep(ctx, o.Window); err != nil {
		c.stop()
		return Figure{}, nil, err
	}
	proc1, dbcpu1 := meter.Read(ctx)
	client1 := txs.n.Load()
	var pickup *Pickup
	if c.pickup != nil {
		if pickup, err = c.pickup(ctx, o.Samples); err != nil {
			c.stop()
			return Figure{}, nil, err
		}
	}
	// The samples' and the stop's transactions, counted by the client from
	// client1 on, are taken off the database's count.
	c.stop()
	pool.Close()
	server1, err := db.settled(ctx)
	if err != nil {
		return Figure{}, nil, err
	}
	perMin := time.Minute.Seconds() / o.Window.Seconds()
	f := Figure{
		Component:      name,
		TxPerMin:       float64(server1-server0-(txs.n.Load()-client1)) * perMin,
		ClientTxPerMin: float64(client1-client0) * perMin,
		ProcessCPUMs:   float64(proc1-proc0) / 1e6 * perMin,
		DatabaseCPUMs:  float64(dbcpu1-dbcpu0) / 1e6 * perMin,
		CPUKnown:       meter.Known(),
		Wake:           wake.state(),
		Target:         TargetTxPerMin,
	}
	f.Line = line(f, c.note)
	return f, pickup, nil
}

// line is a figure's printed line.
func line(f Figure, note string) string {
	cpu := fmt.Sprintf("CPU %.1f ms/min in pipe, %.1f ms/min in its database sessions", f.ProcessCPUMs, f.DatabaseCPUMs)
	if !f.CPUKnown {
		cpu = fmt.Sprintf("CPU %.1f ms/min in pipe (its database sessions' unreadable here)", f.ProcessCPUMs)
	}
	wake := ""
	if f.Wake != "" {
		wake = "; wake " + f.Wake
	}
	verdict := "within"
	if f.TxPerMin > f.Target {
		verdict = "OVER"
	}
	return fmt.Sprintf("%-9s %5.1f transactions/min (%s the target %.0f; %.1f begun by its connections); %s%s — %s",
		f.Component, f.TxPerMin, verdict, f.Target, f.ClientTxPerMin, cpu, wake, note)
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
