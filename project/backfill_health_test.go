package project_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/project"
)

// healthFile declares two passes: held waits for a transaction open past
// 300ms; free has every check off.
const healthFile = `{"backfills": [
  {"name": "held", "table": "held_t", "sql": "update held_t set b = a where id between $1 and $2",
   "health": {"transactionAge": "300ms", "every": "10ms"}},
  {"name": "free", "table": "free_t", "sql": "update free_t set b = a where id between $1 and $2",
   "health": {"replicationLag": "off", "transactionAge": "off", "xidAge": -1, "every": "10ms"}}]}`

// The health limits a pipe.json backfill declares are its pass's: beside a
// transaction of the database open past 300ms, the pass limited to 300ms
// waits, its ledger naming that limit, and finishes once the transaction
// ends; the pass whose checks are off runs to the end beside it.
func TestABackfillsHealthLimitsComeFromTheFile(t *testing.T) {
	if err := schemaAccepts(t, compiledSchema(t), healthFile); err != nil {
		t.Fatalf("the schema refuses the file: %v", err)
	}
	p, err := project.Load(write(t, healthFile))
	if err != nil {
		t.Fatal(err)
	}
	pool := fixtures.DB(t)
	ctx := context.Background()
	for _, table := range []string{"held_t", "free_t"} {
		if _, err := pool.Exec(ctx, `create table `+table+` (id int primary key, a int not null, b int);
			insert into `+table+` select g, g from generate_series(1, 500) g`); err != nil {
			t.Fatal(err)
		}
	}
	old := openTransaction(t, pool, 300*time.Millisecond)
	held, free := enqueuePass(t, p, pool, "held"), enqueuePass(t, p, pool, "free")
	fixtures.StartWorker(t, pool, p.Jobs()...)

	if f := awaitPass(t, pool, free, "done"); f.Rows != 500 {
		t.Fatalf("the pass with its checks off is %+v", f)
	}
	h := awaitPass(t, pool, held, "waiting")
	if reason := deref(h.PauseReason); h.Rows != 0 || !strings.Contains(reason, "a transaction open for") || !strings.Contains(reason, "(limit 300ms)") {
		t.Fatalf("the pass limited to 300ms is %+v (%s)", h, reason)
	}
	if err := old.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if h := awaitPass(t, pool, held, "done"); h.Rows != 500 {
		t.Fatalf("the released pass is %+v", h)
	}
}
