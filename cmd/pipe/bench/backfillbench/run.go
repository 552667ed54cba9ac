package backfillbench

import (
	"context"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/backfill"
	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/pipeline"
)

const table = "pipe_bench_backfill"

func load(ctx context.Context, pool *pgxpool.Pool, rows int64) error {
	drop(pool)
	_, err := pool.Exec(ctx, `create table `+table+` (id bigint primary key, a bigint not null, b bigint, c bigint, touched int not null default 0);
		insert into `+table+` (id, a) select g, g from generate_series(1, `+strconv.FormatInt(rows, 10)+`) g`)
	if err == nil {
		_, err = pool.Exec(ctx, `vacuum analyze `+table)
	}
	return err
}

func drop(pool *pgxpool.Pool) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, _ = pool.Exec(ctx, `drop table if exists `+table+`; delete from pipe.backfills where name = 'pipe.bench.backfill'`)
}

// measure runs work while the app writer writes, timing both.
func measure(ctx context.Context, pool *pgxpool.Pool, o Options, what string, work func(context.Context) error) (Figure, error) {
	var rows int64
	if err := pool.QueryRow(ctx, `select count(*) from `+table).Scan(&rows); err != nil {
		return Figure{}, err
	}
	wctx, stop := context.WithCancel(ctx)
	var lat []time.Duration
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		lat = write(wctx, pool, rows, o.WriteEvery)
	}()
	rss := startRSS()
	start := time.Now()
	err := work(ctx)
	took := time.Since(start)
	peak := rss.stop()
	stop()
	wg.Wait()
	f := Figure{What: what, Ms: ms(took), RowsPerSec: float64(rows) / took.Seconds(), Writes: len(lat), PeakRSSMB: peak}
	if what == "single UPDATE" {
		f.PeakRSSMB = 0
	}
	f.WriteP50Ms, f.WriteP99Ms, f.WriteMaxMs = quantile(lat, 0.5), quantile(lat, 0.99), quantile(lat, 1)
	return f, err
}

// write updates random rows, one a statement, until ctx ends, answering
// each write's latency. A write in flight when ctx ends is waited for (it
// can be queued behind the work's row locks: that wait is the figure).
func write(ctx context.Context, pool *pgxpool.Pool, rows int64, every time.Duration) []time.Duration {
	var lat []time.Duration
	for ctx.Err() == nil {
		id := rand.Int64N(rows) + 1
		start := time.Now()
		if _, err := pool.Exec(context.WithoutCancel(ctx), `update `+table+` set touched = touched + 1 where id = $1`, id); err != nil {
			break
		}
		lat = append(lat, time.Since(start))
		time.Sleep(every)
	}
	return lat
}

// runPass runs one backfill pass setting c from a, with a worker of its own.
func runPass(ctx context.Context, pool *pgxpool.Pool, o Options) error {
	job, err := backfill.New("pipe.bench.backfill", backfill.PassKey, backfill.Options[backfill.Request]{
		Table:  pg.Relation{Name: table},
		Target: o.Target,
		SQL:    `update ` + table + ` set c = a * 2 where id between $1 and $2`,
		Job:    pipeline.JobOptions[backfill.Request, backfill.Result]{Queue: "pipe.bench.backfill"},
	})
	if err != nil {
		return err
	}
	reg, err := pipeline.NewRegistry(job)
	if err != nil {
		return err
	}
	w, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg, Queues: map[string]int{job.Queue(): 1},
		PollInterval: 5 * time.Millisecond, IdlePollMax: 20 * time.Millisecond, Logger: o.Logger})
	if err != nil {
		return err
	}
	if err := w.Start(ctx); err != nil {
		return err
	}
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = w.Shutdown(sctx)
	}()
	res, err := job.Enqueue(ctx, pool, backfill.Request{Pass: strconv.FormatInt(time.Now().UnixNano(), 10)})
	if err != nil {
		return err
	}
	return await(ctx, pool, res.ID)
}

func await(ctx context.Context, pool *pgxpool.Pool, id string) error {
	admin := pipeline.NewAdmin(pool)
	for {
		d, err := admin.Show(ctx, id)
		if err != nil {
			return err
		}
		if !d.State.Live() {
			if d.State != pipeline.StateDone {
				return errFailed(d)
			}
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func quantile(ds []time.Duration, q float64) float64 {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := min(int(q*float64(len(s))), len(s)-1)
	return ms(s[i])
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// rssWatch samples the process's resident memory until stopped.
type rssWatch struct {
	base int64
	peak int64
	done chan struct{}
	wg   sync.WaitGroup
}

func startRSS() *rssWatch {
	w := &rssWatch{base: rssKB(), done: make(chan struct{})}
	w.peak = w.base
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-w.done:
				return
			case <-t.C:
				w.peak = max(w.peak, rssKB())
			}
		}
	}()
	return w
}

// stop answers the peak over the base, in MB.
func (w *rssWatch) stop() float64 {
	close(w.done)
	w.wg.Wait()
	return float64(w.peak-w.base) / 1024
}

// rssKB reads VmRSS from /proc/self/status (0 where there is none).
func rssKB() int64 {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return 0
}
