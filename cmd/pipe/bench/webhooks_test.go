package bench_test

import (
	"strings"
	"testing"
)

// pipe bench webhooks prints its figures beside their anchors (deliveries as
// runs and staged through the outbox, beside a plain POST loop), what a
// delivery costs the CPU beside a plain POST, and what a no-op job's run
// costs on the same worker; its JSON carries each with its ratio; it leaves
// no runs and no outbox rows behind.
func TestBenchWebhooks(t *testing.T) {
	t.Parallel()
	b := setup(t)
	args := []string{"bench", "webhooks", "--deliveries", "100", "--concurrency", "8", "--requests", "100", "--senders", "8", "--rate", "50", "--rate-for", "1s"}
	r := b.pipe(t, args...)
	wantOK(t, r)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 7 || !strings.HasPrefix(lines[0], "outbound, 8 at once: ") || !strings.HasPrefix(lines[1], "CPU a delivery: ") ||
		!strings.HasPrefix(lines[2], "outbound staged through the outbox ") || !strings.HasPrefix(lines[3], "CPU a staged delivery: ") ||
		!strings.HasPrefix(lines[4], "a no-op job on the same worker: ") ||
		!strings.HasPrefix(lines[5], "inbound, 8 senders: ") || !strings.HasPrefix(lines[6], "inbound ack at 50 req/s: ") {
		t.Fatalf("bench printed:\n%s", r.stdout)
	}
	type figures struct {
		Out      float64 `json:"outboundDeliveriesPerSec"`
		OutRatio float64 `json:"outboundRatio"`
		In       float64 `json:"inboundAcksPerSec"`
		InRatio  float64 `json:"inboundRatio"`
		P99      float64 `json:"ackP99Ms"`
		CPU      float64 `json:"outboundCpuUs"`
		Anchor   float64 `json:"anchorCpuUs"`
		Noop     float64 `json:"noopRunsPerSec"`
		NoopCPU  float64 `json:"noopCpuUs"`
		Staged   float64 `json:"stagedDeliveriesPerSec"`
		StRatio  float64 `json:"stagedRatio"`
		StCPU    float64 `json:"stagedCpuUs"`
	}
	f := decodeLoose[figures](t, b.pipe(t, append(args, "--json")...).stdout)
	if f.Out <= 0 || f.OutRatio <= 0 || f.In <= 0 || f.InRatio <= 0 || f.P99 <= 0 || f.CPU <= 0 || f.Anchor <= 0 ||
		f.Noop <= 0 || f.NoopCPU <= 0 || f.Staged <= 0 || f.StRatio <= 0 || f.StCPU <= 0 {
		t.Fatalf("bench --json = %+v", f)
	}
	var left, staged int
	if err := b.pool.QueryRow(t.Context(), `select (select count(*) from pipe.jobs where name like 'pipe.bench.webhooks.%'),
		(select count(*) from pipe.outbox where stream like 'pipe.bench.webhooks.%')`).Scan(&left, &staged); err != nil || left != 0 || staged != 0 {
		t.Fatalf("%d bench runs and %d outbox rows left (%v)", left, staged, err)
	}
}
