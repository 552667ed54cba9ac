package rollup_test

import (
	"strings"
	"testing"
	"time"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/rollup"
)

// A Where whose cast fails on a row quotes the value in the server's
// message: the run is refused at once, by SQLSTATE, and nothing pipe stores
// quotes the row.
func TestRollupWhereRefusedOnARowQuotesNoValue(t *testing.T) {
	const secret = "zq7secretvalue9x"
	pool := setup(t, likesDDL+`; alter table likes add column note text`)
	exec(t, pool, `insert into likes (org_id, created_at, note) values (1, now(), $1)`, secret)
	o := likesDaily("UTC", 48*time.Hour)
	o.Source.Where = "note::int > 0"
	d, _ := fixtures.Run(t, pool, rollup.MustNew(rollup.WindowKey, o), rollup.Request{})
	if d.State != "dead" || d.Attempt != 1 || !strings.Contains(lastError(d), "X_POSTGRES_REFUSED") || !strings.Contains(lastError(d), "SQLSTATE 22P02") {
		t.Fatalf("%s on attempt %d: %s", d.State, d.Attempt, lastError(d))
	}
	if strings.Contains(lastError(d), secret) {
		t.Fatalf("the error quotes the row: %s", lastError(d))
	}
	if where := fixtures.Holding(t, pool, secret); len(where) > 0 {
		t.Fatalf("the row's value is stored in %v", where)
	}
}
