package pipecli_test

import (
	"testing"

	"github.com/pipekit/pipe/cmd/pipe/pipecli"
	"github.com/pipekit/pipe/pipeline"
)

func TestWorkersListsRunningWorkers(t *testing.T) {
	t.Parallel()
	b := setup(t)
	if r := b.pipe(t, "workers"); r.stdout != "no workers\n" {
		t.Fatalf("workers with none running printed %q", r.stdout)
	}
	if r := b.pipe(t, "workers", "--json"); r.stdout != "[]\n" {
		t.Fatalf("workers --json with none running printed %q", r.stdout)
	}

	opts := pipecli.Options{Jobs: []pipeline.Registrable{pipecli.DemoJob()}}
	w := b.start(t, opts, "worker", "--queue", "default=3,mail=2", "--max-in-flight", "4")
	adm := pipeline.NewAdmin(b.pool)
	waitFor(t, "the worker announced", func() bool {
		ws, err := adm.Workers(t.Context())
		return err == nil && len(ws) == 1
	})

	ws := decode[[]pipeline.WorkerInfo](t, b.pipe(t, "workers", "--json").stdout)
	if len(ws) != 1 || ws[0].Queues["default"] != 3 || ws[0].Queues["mail"] != 2 || ws[0].MaxInFlight != 4 || len(ws[0].InFlight) != 0 {
		t.Fatalf("workers --json = %+v", ws)
	}
	text := b.pipe(t, "workers")
	wantOK(t, text)
	if !hasRow(text.stdout, "ID", "HOST", "QUEUES", "IN", "FLIGHT", "MAX", "IN", "FLIGHT", "STARTED", "LAST", "HEARTBEAT") {
		t.Fatalf("workers lacks its header:\n%s", text.stdout)
	}
	w0 := ws[0]
	if !hasRow(text.stdout, w0.ID, w0.Host, "default=3,mail=2", "0", "4", w0.StartedAt.UTC().Format("2006-01-02T15:04:05Z"),
		w0.LastHeartbeat.UTC().Format("2006-01-02T15:04:05Z")) {
		t.Fatalf("workers lacks the worker's row:\n%s", text.stdout)
	}
	wantOK(t, w.wait())
	wantError(t, b.pipe(t, "workers", "extra"), 2, "X_CONFIG_INVALID")
}
