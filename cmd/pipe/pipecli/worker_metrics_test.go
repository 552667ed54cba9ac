package pipecli_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/pipekit/pipe/cmd/pipe/pipecli"
	"github.com/pipekit/pipe/pipeline"
)

func TestWorkerServesMetrics(t *testing.T) {
	t.Parallel()
	b := setup(t)
	opts := pipecli.Options{Jobs: []pipeline.Registrable{pipecli.DemoJob()}}
	b.enqueueDemo(t, "grace")
	w := b.start(t, opts, "worker", "--json", "--metrics-addr", "127.0.0.1:0")

	var rec struct {
		Msg  string `json:"msg"`
		Addr string `json:"addr"`
	}
	w.stderr.waitLine(t, "pipe.metrics.serving", func(line string) bool {
		return json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "pipe.metrics.serving"
	})
	resp, err := http.Get("http://" + rec.Addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /metrics: %d %v", resp.StatusCode, err)
	}
	for _, want := range []string{"job_store_up 1", `job_worker_capacity{worker="`, `job_leases_lost_total `,
		`queue_depth{queue="default",state="ready"} `} {
		if !strings.Contains(string(body), want) {
			t.Fatalf("/metrics lacks %q:\n%s", want, body)
		}
	}
	wantOK(t, w.wait())
	if _, err := http.Get("http://" + rec.Addr + "/metrics"); err == nil {
		t.Fatal("the metrics endpoint still answers after the worker stopped")
	}
}

func TestWorkerMetricsAddrInUse(t *testing.T) {
	t.Parallel()
	b := setup(t)
	opts := pipecli.Options{Jobs: []pipeline.Registrable{pipecli.DemoJob()}}
	r := b.pipeWith(t, opts, "worker", "--metrics-addr", "127.0.0.1:-1")
	wantError(t, r, 1, "X_CONFIG_INVALID")
	if !strings.Contains(r.stderr, "--metrics-addr") {
		t.Fatalf("the error does not name the flag:\n%s", r.stderr)
	}
}
