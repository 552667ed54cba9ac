package pipecli_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// bounced answers a bundle whose URL leads through the kit's PgBouncer in
// transaction pooling mode, the URL as a user would write it (pgx's default
// query mode, which prepares statements under names), and the database's
// direct URL.
func bounced(t *testing.T) (*bundle, string) {
	t.Helper()
	b := setup(t)
	direct := b.url
	if fixtures.Pooled() {
		direct = fixtures.DirectURL(t, b.url)
	}
	pooled := fixtures.PgBouncerURL(t, direct)
	b.url = strings.Replace(pooled, "&default_query_exec_mode=cache_describe", "", 1)
	return b, direct
}

// Through PgBouncer every command sends its statements unnamed: a named
// prepared statement lives in one server's session, and the pooler hands
// the next transaction to another (SQLSTATE 42P05 or 26000, one command in
// two before).
func TestCommandsWorkThroughPgBouncer(t *testing.T) {
	t.Parallel()
	b, _ := bounced(t)
	b.enqueueDemo(t, "ada")
	for i := range 10 {
		for _, args := range [][]string{{"jobs", "list"}, {"queues", "list"}, {"stats"}, {"workers"}, {"migrate"}} {
			if r := b.pipe(t, args...); r.code != 0 {
				t.Fatalf("pipe %s (run %d) through PgBouncer exited %d:\n%s", strings.Join(args, " "), i, r.code, r.stderr)
			}
		}
	}
}

// A worker behind PgBouncer says at start that it polls, and what to set;
// with --listen-url past the pooler its wake is live. Either way it runs.
func TestWorkerThroughPgBouncerSaysItPollsWithoutAListenURL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		listen bool
		want   string
	}{{"no listen url", false, "jobs.wake.off"}, {"listen url", true, "jobs.wake.live"}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, direct := bounced(t)
			job := pipeline.MustJob("test.bounced", func(in blockInput) string { return in.Key },
				func(context.Context, *pipeline.Run[blockInput]) (struct{}, error) { return struct{}{}, nil })
			res, err := job.Enqueue(t.Context(), b.pool, blockInput{Key: "k"})
			if err != nil {
				t.Fatal(err)
			}
			args := []string{"--json"}
			if tc.listen {
				args = append(args, "--listen-url", direct)
			}
			stop, done := b.startWorker(t, job, args...)
			b.awaitSettledBy(t, res.ID, stop, done)
			time.Sleep(2500 * time.Millisecond) // the wake's probe answers within 2 s
			stop()
			r := <-done
			wantOK(t, r)
			if !strings.Contains(r.stderr, tc.want) {
				t.Fatalf("the worker's log has no %s:\n%s", tc.want, r.stderr)
			}
			if strings.Contains(r.stderr, direct) || strings.Contains(r.stderr, "jobs.wake.unverified") {
				t.Fatalf("the worker's log quotes the URL or found its wake unverified:\n%s", r.stderr)
			}
			if tc.listen == strings.Contains(r.stderr, "jobs.wake.off") {
				t.Fatalf("with listen url %v the worker's log says jobs.wake.off %v:\n%s", tc.listen, !tc.listen, r.stderr)
			}
		})
	}
}

// A --listen-url that does not parse is refused, without quoting it.
func TestABadListenURLIsRefused(t *testing.T) {
	t.Parallel()
	b := setup(t)
	job := pipeline.MustJob("test.badlisten", func(in blockInput) string { return in.Key },
		func(context.Context, *pipeline.Run[blockInput]) (struct{}, error) { return struct{}{}, nil })
	_, done := b.startWorker(t, job, "--listen-url", "postgres://u:s3cret@[::1")
	r := <-done
	if r.code == 0 || !strings.Contains(r.stderr, "X_CONFIG_INVALID") || strings.Contains(r.stderr, "s3cret") {
		t.Fatalf("a bad --listen-url: exit %d\n%s", r.code, r.stderr)
	}
}

// awaitSettledBy waits up to 20 s for run id to settle under the worker
// started with stop and done; when it does not, the failure carries what
// the worker logged.
func (b *bundle) awaitSettledBy(t *testing.T, id string, stop context.CancelFunc, done <-chan result) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for b.show(t, id).State.Live() {
		if time.Now().After(deadline) {
			stop()
			r := <-done
			t.Fatalf("run %s did not settle in 20 s; the worker exited %d and logged:\n%s", id, r.code, r.stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
