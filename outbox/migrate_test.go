package outbox_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/outbox"
)

// A database whose relay marked rows one by one (migrations up to 0020)
// keeps their state through migration 0021: the published rows count as
// published, past the newest batch the migration records, and those not
// yet published — waiting or dead — do not.
func TestMigrationKeepsWhatWasPublished(t *testing.T) {
	pool := fixtures.EmptyDB(t)
	ctx := context.Background()
	if _, err := pool.Exec(ctx, `create schema pipe;
		create table pipe.migrations (version integer primary key, name text not null, applied_at timestamptz not null default now())`); err != nil {
		t.Fatal(err)
	}
	applyMigrations(t, pool, 1, 20)
	if _, err := pool.Exec(ctx, `insert into pipe.outbox (stream, message_id, payload, published_at, fault)
		select 'orders', gen_random_uuid(), '\x00', case when n <= 3 then now() - interval '1 hour' end, case when n = 5 then 'dead' end
		  from generate_series(1, 6) n`); err != nil {
		t.Fatal(err)
	}
	applyMigrations(t, pool, 21, 21)
	st, err := outbox.Status(ctx, pool)
	if err != nil {
		t.Fatal(err)
	}
	if len(st) != 1 || st[0].LagRows != 2 || st[0].Dead != 1 {
		t.Fatalf("status after the migration %+v; want 3 published, 1 dead and 2 waiting", st)
	}
	if n, err := outbox.Prune(ctx, pool, 30*time.Minute); err != nil || n != 3 {
		t.Fatalf("Prune deleted %d rows (%v); want the 3 published an hour before the migration", n, err)
	}
}

// applyMigrations runs the shipped migration files from..to on pool, as
// SQL, without pipe's bookkeeping.
func applyMigrations(t *testing.T, pool *pgxpool.Pool, from, to int) {
	t.Helper()
	files, err := filepath.Glob("../pipeline/migrations/*.sql")
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	for _, f := range files {
		num, _, _ := strings.Cut(filepath.Base(f), "_")
		if v, _ := strconv.Atoi(num); v < from || v > to {
			continue
		}
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := pool.Exec(context.Background(), string(body)); err != nil {
			t.Fatalf("apply %s: %v", filepath.Base(f), err)
		}
	}
}
