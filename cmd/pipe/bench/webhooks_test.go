package bench_test

import (
	"strings"
	"testing"
)

// pipe bench webhooks prints its three figures beside their anchors, what a
// delivery costs the CPU beside a plain POST, and what a no-op job's run
// costs on the same worker; its JSON carries each with its ratio; it leaves
// no runs behind.
func TestBenchWebhooks(t *testing.T) {
	t.Parallel()
	b := setup(t)
	args := []string{"bench", "webhooks", "--deliveries", "100", "--concurrency", "8", "--requests", "100", "--senders", "8", "--rate", "50", "--rate-for", "1s"}
	r := b.pipe(t, args...)
	wantOK(t, r)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[0], "outbound, 8 at once: ") || !strings.HasPrefix(lines[1], "CPU a delivery: ") ||
		!strings.HasPrefix(lines[2], "a no-op job on the same worker: ") ||
		!strings.HasPrefix(lines[3], "inbound, 8 senders: ") || !strings.HasPrefix(lines[4], "inbound ack at 50 req/s: ") {
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
	}
	f := decodeLoose[figures](t, b.pipe(t, append(args, "--json")...).stdout)
	if f.Out <= 0 || f.OutRatio <= 0 || f.In <= 0 || f.InRatio <= 0 || f.P99 <= 0 || f.CPU <= 0 || f.Anchor <= 0 ||
		f.Noop <= 0 || f.NoopCPU <= 0 {
		t.Fatalf("bench --json = %+v", f)
	}
	var left int
	if err := b.pool.QueryRow(t.Context(), `select count(*) from pipe.jobs where name like 'pipe.bench.webhooks.%'`).Scan(&left); err != nil || left != 0 {
		t.Fatalf("%d bench runs left (%v)", left, err)
	}
}
