// Command jobbench runs the job figures of `pipe bench jobs` against a
// database, for measuring pipe side by side with its anchors:
//
//	go run ./cmd/pipe/bench/jobbench/cmd/jobbench -url postgres://postgres@127.0.0.1:5432/postgres -fresh pipe_bench
//
// With -fresh NAME it creates database NAME on the server -url reaches,
// migrates it, measures there and drops it afterwards. -cpuprofile writes a
// CPU profile of the whole run (narrow it with -only), -memprofile its
// allocations.
package main

import (
	"context"
	"flag"
	"fmt"
	"net/url"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pipekit/pipe/cmd/pipe/bench/jobbench"
	"github.com/pipekit/pipe/pipeline"
)

func main() {
	jobbench.HelperMain()
	dsn := flag.String("url", "postgres://postgres@127.0.0.1:5432/postgres", "database URL")
	fresh := flag.String("fresh", "", "create this database on the server, migrate it, measure there, drop it")
	n := flag.Int("n", 0, "jobs for enqueue-many and work (default 100000)")
	only := flag.String("only", "", "figures, comma-separated (default all)")
	slots := flag.Int("slots", 0, "worker slots for work (default 1000)")
	samples := flag.Int("samples", 0, "pickup samples (default 200)")
	stepJobs := flag.Int("stepjobs", 0, "durable jobs for steps (default 3000)")
	maxConns := flag.Int("maxconns", 0, "pool size (default pgxpool's)")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile here")
	memProfile := flag.String("memprofile", "", "write an allocation profile here")
	flag.Parse()
	if err := run(*dsn, *fresh, *only, *cpuProfile, *memProfile, *maxConns,
		jobbench.Options{N: *n, Slots: *slots, PickupSamples: *samples, StepJobs: *stepJobs}); err != nil {
		fmt.Fprintln(os.Stderr, "jobbench:", err)
		os.Exit(1)
	}
}

func run(dsn, fresh, only, cpuProfile, memProfile string, maxConns int, o jobbench.Options) (err error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if fresh != "" {
		admin, err := pgx.Connect(ctx, dsn)
		if err != nil {
			return err
		}
		defer admin.Close(context.Background())
		ident := pgx.Identifier{fresh}.Sanitize()
		if _, err := admin.Exec(ctx, "drop database if exists "+ident+" with (force)"); err != nil {
			return err
		}
		if _, err := admin.Exec(ctx, "create database "+ident); err != nil {
			return err
		}
		defer func() {
			_, derr := admin.Exec(context.Background(), "drop database if exists "+ident+" with (force)")
			if err == nil {
				err = derr
			}
		}()
		u, err := url.Parse(dsn)
		if err != nil {
			return err
		}
		u.Path = "/" + fresh
		dsn = u.String()
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return err
	}
	if maxConns > 0 {
		cfg.MaxConns = int32(maxConns)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return err
	}
	defer pool.Close()
	if _, err := pipeline.Migrate(ctx, pool); err != nil {
		return err
	}
	if only != "" {
		o.Only = strings.Split(only, ",")
	}
	if cpuProfile != "" {
		f, err := os.Create(cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	if memProfile != "" {
		runtime.MemProfileRate = 64 << 10
		defer writeHeapProfile(memProfile)
	}
	_, err = jobbench.Run(ctx, pool, o, os.Stdout)
	return err
}

// writeHeapProfile writes the allocations of the whole run (go tool pprof
// -sample_index=alloc_space reads where they came from).
func writeHeapProfile(path string) {
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "jobbench:", err)
		return
	}
	defer f.Close()
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		fmt.Fprintln(os.Stderr, "jobbench:", err)
	}
}
