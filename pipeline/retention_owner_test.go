package pipeline_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// A role that holds only what pipe grants gives (the test kit's role of
// least privilege) owns no partition, yet its maintenance drops the
// expired ones, counts their runs and makes the tree whole again, through
// pipe.drop_run_partition; it cannot drop one by itself.
func TestARoleOfLeastPrivilegeDropsExpiredPartitions(t *testing.T) {
	t.Setenv(fixtures.RoleEnv, "pipe_retention_least")
	ctx := context.Background()
	start := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	pool, clock, id := cancelledRunAt(t, start)
	if scalar[bool](t, pool, `select pg_has_role(current_user, relowner, 'usage') from pg_class where oid = 'pipe.runs'::regclass`) {
		t.Fatal("the test's role owns pipe.runs")
	}
	var pgErr *pgconn.PgError
	if _, err := pool.Exec(ctx, `drop table pipe.runs_done_old`); !errors.As(err, &pgErr) || pgErr.Code != "42501" {
		t.Fatalf("the role's own drop of a partition answered %v; want permission denied", err)
	}
	clock.Advance(t, 2*aDay) // the old edge, 03-01 and 03-02 (the run's day) expire
	m, err := pipeline.Maintain(ctx, pool, pipeline.Retention{Done: aDay, Dead: 90 * aDay})
	if err != nil {
		t.Fatal(err)
	}
	if m.PartitionsDropped == 0 || m.Purged != 1 || m.DropsDeferred != 0 {
		t.Fatalf("the role's pass dropped %d partitions, purged %d runs, deferred %d; want some, 1, 0",
			m.PartitionsDropped, m.Purged, m.DropsDeferred)
	}
	if hasPartition(t, pool, "runs_done_20260302") || scalar[int64](t, pool, `select count(*) from pipe.jobs where id = $1`, id) != 0 {
		t.Fatal("the role's pass left the expired run")
	}
	checkContiguous(t, pool, "runs_done", aDay)
	checkContiguous(t, pool, "run_events_done", aDay)
}
