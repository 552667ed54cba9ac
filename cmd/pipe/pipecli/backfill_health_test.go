package pipecli_test

import (
	"strings"
	"testing"
	"time"

	"github.com/pipekit/pipe/backfill"
	"github.com/pipekit/pipe/cmd/pipe/pipecli"
)

// healthConfig's pass waits while the transaction id age passes 1, which
// every cluster's does.
const healthConfig = `{
  "backfills": [{"name": "fill-cents", "table": "accounts",
    "sql": "update accounts set cents = round(balance * 100) where id between $1 and $2",
    "health": {"xidAge": 1, "every": "10ms"}}]
}`

// `pipe backfill run --wait` runs the pass under the health limits its
// pipe.json declares: held by the file's xidAge limit, `pipe backfill
// show` says why, and `pipe backfill cancel` stops it with no row written.
func TestTheCLIsPassWaitsUnderThePipeJSONsHealthLimits(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, `create table accounts (id int primary key, balance numeric not null, cents bigint);
		insert into accounts select g, g / 10.0 from generate_series(1, 400) g`)
	cfg := writeConfig(t, healthConfig)
	done := make(chan result, 1)
	go func() {
		done <- execute(t.Context(), pipecli.Options{}, "--database-url", b.url, "backfill", "run", "fill-cents", "--config", cfg, "--wait")
	}()
	p := awaitShown(t, b, done, "waiting")
	if p.Rows != 0 || !strings.Contains(deref(p.PauseReason), "near wraparound (limit 1)") {
		t.Fatalf("the waiting pass is %+v (%s)", p, deref(p.PauseReason))
	}
	wantOK(t, b.pipe(t, "backfill", "cancel", "fill-cents"))
	select {
	case r := <-done:
		wantError(t, r, 1, "X_JOB_CANCELLED") // with its fix: `pipe jobs retry ID` runs it again
		if !strings.Contains(r.stderr, "pipe jobs retry ") {
			t.Fatalf("the cancelled pass's fix does not say how to run it again:\n%s", r.stderr)
		}
	case <-time.After(time.Minute):
		t.Fatal("pipe backfill run --wait did not end after the pass was cancelled")
	}
	var n int
	if err := b.pool.QueryRow(t.Context(), `select count(*) from accounts where cents is not null`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d rows written by a pass that waited (%v)", n, err)
	}
}

// A health limit pipe.json writes wrong is refused before any run, naming
// its key.
func TestABadHealthLimitIsRefusedNamingItsKey(t *testing.T) {
	t.Parallel()
	b := setup(t)
	cfg := writeConfig(t, strings.Replace(healthConfig, `"xidAge": 1`, `"transactionAge": "5 minutes"`, 1))
	r := b.pipe(t, "backfill", "run", "fill-cents", "--config", cfg, "--wait")
	wantError(t, r, 1, "X_BACKFILL_INVALID")
	if !strings.Contains(r.stderr, "backfills[0].health.transactionAge: X_DURATION_INVALID") {
		t.Fatalf("the refusal does not name backfills[0].health.transactionAge:\n%s", r.stderr)
	}
	var runs int
	if err := b.pool.QueryRow(t.Context(), `select count(*) from pipe.jobs`).Scan(&runs); err != nil || runs != 0 {
		t.Fatalf("%d runs left behind (%v)", runs, err)
	}
}

// awaitShown polls `pipe backfill show fill-cents --json` until the pass
// is in state, failing the test if the command run in done ends first.
func awaitShown(t *testing.T, b *bundle, done <-chan result, state string) backfill.Pass {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		select {
		case r := <-done:
			t.Fatalf("pipe backfill run ended (exit %d) before its pass was %s:\n%s%s", r.code, state, r.stdout, r.stderr)
		default:
		}
		var p backfill.Pass
		if r := b.pipe(t, "backfill", "show", "fill-cents", "--json"); r.code == 0 {
			p = decode[backfill.Pass](t, r.stdout)
			if p.State == state {
				return p
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the pass is not %s: %+v", state, p)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
