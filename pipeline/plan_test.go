package pipeline_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// The hot statements find their rows by id and their lapsed leases by
// lease, whatever the statistics say. Here they say what they say after a
// burst of work was cleaned up and ANALYZEd (a table "empty"), and then
// 20,000 live rows arrived, 1,000 of them running: the plans a worker makes
// at its first claim, and keeps, must not read every open row (through
// runs_open_live_key or runs_open_state) or every running one to claim or
// settle a batch, nor any finished partition.
func TestTheHotStatementsPlansDoNotReadEveryLiveRow(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	rows := `insert into pipe.runs (id, run_id, name, queue, idem_key, input, state, max_attempts)
		select u, u, 'plan', 'q', u::text, '{}', 'ready', 3 from (select gen_random_uuid() u from generate_series(1, 20000)) g`
	for _, sql := range []string{rows, `delete from pipe.runs`, `vacuum analyze pipe.runs`, rows,
		`update pipe.runs set state = 'running', claims = 1, lease_until = now() + interval '1 hour'
		 where id in (select id from pipe.runs order by id limit 1000)`} {
		if _, err := pool.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	var ids []string
	if err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		r, err := tx.Query(ctx, `select id::text from pipe.runs where state = 'running' limit 100`)
		if err != nil {
			return err
		}
		ids, err = pgx.CollectRows(r, pgx.RowTo[string])
		return err
	}); err != nil {
		t.Fatal(err)
	}
	ones := make([]int32, len(ids))
	results := make([]string, len(ids))
	for i := range ids {
		ones[i], results[i] = 1, "null"
	}
	for _, c := range []struct {
		name, settings, sql string
		args                []any
	}{
		{"claim", pipeline.ClaimSettings, pipeline.SQLClaim, []any{[]string{"q"}, []int32{100}, []string{"plan"}, "w", []string{}, "30 seconds", nil}},
		{"complete", pipeline.BatchSettings, pipeline.SQLComplete, []any{ids, ones, results, []string{}}},
		{"renew", pipeline.BatchSettings, pipeline.SQLRenew, []any{ids, ones, "30 seconds"}},
		{"steps", pipeline.BatchSettings, pipeline.SQLSteps, []any{ids, ones, ids, ids, results}},
	} {
		plan := explainAsRun(t, pool, c.settings, "", c.sql, c.args)
		if strings.Contains(plan, "runs_open_live_key") || strings.Contains(plan, "Seq Scan on runs_open") ||
			strings.Contains(plan, "Index Cond: (state = 'running'::text)\n") {
			t.Errorf("%s reads every open row:\n%s", c.name, plan)
		}
		if c.name != "renew" && (strings.Contains(plan, "runs_done") || strings.Contains(plan, "runs_dead")) {
			t.Errorf("%s reads a finished partition:\n%s", c.name, plan)
		}
	}
}

// explainAsRun answers the plan of sql under settings as the worker runs it
// (a generic plan under the batches' force_generic_plan), in a transaction
// rolled back.
func explainAsRun(t *testing.T, pool interface {
	Begin(context.Context) (pgx.Tx, error)
}, settings, options, sql string, args []any) string {
	t.Helper()
	ctx := context.Background()
	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	if _, err := tx.Exec(ctx, settings); err != nil {
		t.Fatal(err)
	}
	// A prepared statement, as pgx makes one, explained as executed: under
	// plan_cache_mode=force_generic_plan, the plan kept for the connection;
	// otherwise the first (custom) plan.
	if _, err := tx.Prepare(ctx, "hot", sql); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Conn().Deallocate(ctx, "hot") }()
	lits := make([]string, len(args))
	for i, a := range args {
		lits[i] = literal(a)
	}
	r, err := tx.Query(ctx, "explain "+options+" execute hot("+strings.Join(lits, ", ")+")")
	if err != nil {
		t.Fatal(err)
	}
	lines, err := pgx.CollectRows(r, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(lines, "\n")
}

// literal writes a test argument as an SQL literal.
func literal(a any) string {
	switch v := a.(type) {
	case nil:
		return "null"
	case string:
		return "'" + strings.ReplaceAll(v, "'", "''") + "'"
	case int:
		return strconv.Itoa(v)
	case uuid.UUID:
		return "'" + v.String() + "'::uuid"
	case time.Time:
		return "'" + v.Format(time.RFC3339Nano) + "'::timestamptz"
	case []string:
		return "'{" + strings.Join(v, ",") + "}'"
	case []int32:
		parts := make([]string, len(v))
		for i, n := range v {
			parts[i] = fmt.Sprint(n)
		}
		return "'{" + strings.Join(parts, ",") + "}'"
	}
	panic(fmt.Sprintf("literal: %T", a))
}

// The claim reads the worker's own job names' rows and no others, on the
// plan it keeps for every pass: made while the statistics said the table
// was empty, then run with 30,000 ready rows of another job queued ahead of
// the worker's three in the same queue.
func TestTheClaimReadsOnlyItsOwnNames(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	if _, err := fixtures.Owner(t, pool).Exec(ctx, `vacuum analyze pipe.runs`); err != nil {
		t.Fatal(err)
	}
	insert := `insert into pipe.runs (id, run_id, name, queue, idem_key, input, state, max_attempts, run_at)
		select u, u, $1, 'q', u::text, '{}', 'ready', 3, now() - interval '1 hour' + $2 * interval '1 second'
		from (select gen_random_uuid() u from generate_series(1, $3::int)) g`
	if _, err := pool.Exec(ctx, insert, "other", 0, 30000); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, insert, "mine", 60, 3); err != nil {
		t.Fatal(err)
	}
	args := []any{[]string{"q"}, []int32{100}, []string{"mine"}, "w", []string{}, "30 seconds", nil}
	raw := explainAsRun(t, pool, pipeline.ClaimSettings, "(analyze, format json)", pipeline.SQLClaim, args)
	var doc []struct{ Plan planNode }
	if err := json.Unmarshal([]byte(raw), &doc); err != nil {
		t.Fatal(err)
	}
	read := doc[0].Plan.rowsRead("runs_open")
	if read > 10 {
		t.Fatalf("the claim read %.0f rows of pipe.runs_open to claim 3 of its own:\n%s", read, raw)
	}
	if !strings.Contains(raw, `"Index Name": "runs_open_claimable"`) {
		t.Fatalf("the claim does not read through runs_open_claimable:\n%s", raw)
	}
	if strings.Contains(raw, "runs_done") || strings.Contains(raw, "runs_dead") {
		t.Fatalf("the claim reads a finished partition:\n%s", raw)
	}
}

// planNode is one node of EXPLAIN (FORMAT JSON).
type planNode struct {
	Relation string     `json:"Relation Name"`
	Rows     float64    `json:"Actual Rows"`
	Loops    float64    `json:"Actual Loops"`
	Removed  float64    `json:"Rows Removed by Filter"`
	Plans    []planNode `json:"Plans"`
}

// rowsRead answers the rows the nodes scanning relation returned or
// filtered out, over every loop.
func (n planNode) rowsRead(relation string) float64 {
	var sum float64
	if n.Relation == relation {
		sum += (n.Rows + n.Removed) * n.Loops
	}
	for _, c := range n.Plans {
		sum += c.rowsRead(relation)
	}
	return sum
}
