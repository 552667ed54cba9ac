package pipecli_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pipekit/pipe/backfill"
)

const backfillConfig = `{
  "backfills": [{"name": "fill-cents", "table": "accounts", "batch": 50,
    "sql": "update accounts set cents = round(balance * 100) where id between $1 and $2"}]
}`

func TestABackfillDeclaredInPipeJSONRunsFromTheCLI(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, `create table accounts (id int primary key, balance numeric not null, cents bigint);
		insert into accounts select g, g / 10.0 from generate_series(1, 400) g; analyze accounts`)
	cfg := writeConfig(t, backfillConfig)
	r := b.pipe(t, "backfill", "run", "fill-cents", "--config", cfg, "--wait", "--json")
	wantOK(t, r)
	if res := decode[backfill.Result](t, r.stdout); res.Rows != 400 || res.Cursor != "400" {
		t.Fatalf("the pass answered %+v", res)
	}
	var n int64
	if err := b.pool.QueryRow(t.Context(), `select count(*) from accounts where cents = round(balance * 100)`).Scan(&n); err != nil || n != 400 {
		t.Fatalf("%d rows filled (%v)", n, err)
	}
	r = b.pipe(t, "backfill", "list", "--json")
	wantOK(t, r)
	list := decode[struct{ Passes []backfill.Pass }](t, r.stdout)
	if len(list.Passes) != 1 || list.Passes[0].State != "done" || list.Passes[0].Rows != 400 || list.Passes[0].Name != "fill-cents" {
		t.Fatalf("the ledger lists %+v", list.Passes)
	}
	r = b.pipe(t, "backfill", "show", "fill-cents")
	wantOK(t, r)
	r = b.pipe(t, "jobs", "show", list.Passes[0].JobID, "--json")
	wantOK(t, r)
	var show struct{ Backfill *backfill.Pass }
	if err := json.Unmarshal([]byte(r.stdout), &show); err != nil || show.Backfill == nil || show.Backfill.Rows != 400 {
		t.Fatalf("jobs show holds no ledger row: %s", r.stdout)
	}
	r = b.pipe(t, "backfill", "pause", "fill-cents", "--json")
	if r.code == 0 {
		t.Fatalf("a finished pass was paused: %s", r.stdout)
	}
}

// A pass whose statement names an unknown column is refused before it is
// enqueued — with --wait and without — naming the file's key
// (backfills[0].sql), and leaves no run behind.
func TestABackfillWithAnUnknownColumnIsRefusedBeforeItsRun(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, `create table accounts (id int primary key, balance numeric not null)`)
	cfg := writeConfig(t, backfillConfig) // sets cents, which the table lacks
	for _, args := range [][]string{{"--wait"}, nil} {
		r := b.pipe(t, append([]string{"backfill", "run", "fill-cents", "--config", cfg}, args...)...)
		wantError(t, r, 1, "X_BACKFILL_INVALID")
		if !strings.Contains(r.stderr, "backfills[0].sql") {
			t.Fatalf("the refusal does not name backfills[0].sql:\n%s", r.stderr)
		}
	}
	var runs int
	if err := b.pool.QueryRow(t.Context(), `select count(*) from pipe.jobs`).Scan(&runs); err != nil || runs != 0 {
		t.Fatalf("%d runs left behind (%v)", runs, err)
	}
}
