package pipeline_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// The worker's LISTEN session dials from a copy of the pool's config, TLS
// settings included: over sslmode=verify-full the wake is proven, wakes an
// idle worker, and every session of the worker's is encrypted.
func TestWakeOverVerifiedTLS(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.TLSServer(t).DB(t)
	j := payloadJob("woken-tls")
	j.SetWakeThrottle(time.Millisecond)
	logs := &logRecorder{}
	w := startWorker(t, pool, pipeline.WorkerConfig{PollInterval: time.Minute, IdlePollMax: time.Minute, Logger: slog.New(logs)}, j)
	logs.await(t, "jobs.wake.live")
	awaitStat(t, w.Stats().Passes.Load, 1)
	before := w.Stats().Passes.Load()
	res, err := j.Enqueue(ctx, pool, payload{K: "a"})
	if err != nil {
		t.Fatal(err)
	}
	awaitState(t, pool, res.ID, "done")
	if after := w.Stats().Passes.Load(); after != before+1 {
		t.Fatalf("passes %d -> %d; the wake should have caused exactly one", before, after)
	}
	var sessions, plain int
	err = pool.QueryRow(ctx, `select count(*), count(*) filter (where not s.ssl)
		from pg_stat_activity a join pg_stat_ssl s using (pid)
		where a.datname = current_database() and a.backend_type = 'client backend'`).Scan(&sessions, &plain)
	if err != nil {
		t.Fatal(err)
	}
	if sessions < 2 || plain != 0 {
		t.Fatalf("%d sessions, %d of them without TLS; want the pool's and the LISTEN session, all encrypted", sessions, plain)
	}
}
