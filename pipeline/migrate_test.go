package pipeline_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// migrateAsBefore migrates pool's empty database as Migrate did before it
// recorded checksums — the migrations table as first released, each file up
// to 0012 applied and its version recorded — taking the files of
// replaced (0001 and 0007 as first released) where given.
// versionsFrom answers the versions of the shipped migrations from v on:
// what a database migrated before v applies when it upgrades.
func versionsFrom(t *testing.T, v int) []int {
	t.Helper()
	files, err := filepath.Glob("migrations/*.sql")
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, f := range files {
		num, _, _ := strings.Cut(filepath.Base(f), "_")
		if n, err := strconv.Atoi(num); err == nil && n >= v {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

func migrateAsBefore(t *testing.T, pool *pgxpool.Pool, replaced map[string]string) {
	t.Helper()
	ctx := context.Background()
	if _, err := pool.Exec(ctx, `create schema pipe;
		create table pipe.migrations (version integer primary key, name text not null, applied_at timestamptz not null default now())`); err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob("migrations/*.sql")
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	for _, f := range files {
		base := strings.TrimSuffix(filepath.Base(f), ".sql")
		num, name, _ := strings.Cut(base, "_")
		v, _ := strconv.Atoi(num)
		if v > 12 {
			break
		}
		if r, ok := replaced[filepath.Base(f)]; ok {
			f = r
		}
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := pool.Exec(ctx, string(body)); err != nil {
			t.Fatalf("apply %s: %v", f, err)
		}
		if _, err := pool.Exec(ctx, `insert into pipe.migrations (version, name) values ($1, $2)`, v, name); err != nil {
			t.Fatal(err)
		}
	}
}

// schemaOf answers everything the pipe schema holds, as text: tables and
// columns, indexes, constraints, functions (by their definitions), views,
// triggers and sequences.
func schemaOf(t *testing.T, pool *pgxpool.Pool) []string {
	t.Helper()
	rows, err := pool.Query(context.Background(), `
		select 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '')
		from information_schema.columns where table_schema = 'pipe'
		union all select 'index ' || indexdef from pg_indexes where schemaname = 'pipe'
		union all select 'constraint ' || conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(c.oid)
		from pg_constraint c join pg_namespace n on n.oid = c.connamespace where n.nspname = 'pipe'
		union all select 'function ' || pg_get_functiondef(p.oid)
		from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'pipe'
		union all select 'view ' || viewname || ' ' || definition from pg_views where schemaname = 'pipe'
		union all select 'trigger ' || tgrelid::regclass || ' ' || pg_get_triggerdef(g.oid)
		from pg_trigger g join pg_class c on c.oid = g.tgrelid join pg_namespace n on n.oid = c.relnamespace
		where n.nspname = 'pipe' and not g.tgisinternal
		union all select 'sequence ' || sequence_name from information_schema.sequences where sequence_schema = 'pipe'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// havanaDay is the start of the day a fall-back repeats midnight in.
func havanaDay(t *testing.T, pool *pgxpool.Pool) string {
	t.Helper()
	var s string
	err := pool.QueryRow(context.Background(),
		`select pipe.bucket_start('day', '2025-11-02 12:00:00+00', 'America/Havana')::text`).Scan(&s)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestMigrateUpgradesADatabaseMigratedBeforeChecksums(t *testing.T) {
	asReleased := map[string]string{
		"0001_jobs.sql":   "testdata/released-before-edit/0001_jobs.sql",
		"0007_bucket.sql": "testdata/released-before-edit/0007_bucket.sql",
	}
	for _, c := range []struct {
		name     string
		replaced map[string]string
	}{
		{"migrated with 0001 and 0007 as first released", asReleased},
		{"migrated with 0001 and 0007 as edited", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			fresh := fixtures.DB(t)
			old := fixtures.EmptyDB(t)
			migrateAsBefore(t, old, c.replaced)
			before := havanaDay(t, old)
			applied, err := pipeline.Migrate(ctx, old)
			if err != nil {
				t.Fatal(err)
			}
			if want := versionsFrom(t, 13); !slices.Equal(applied, want) {
				t.Fatalf("applied %v; want %v", applied, want)
			}
			if got, want := schemaOf(t, old), schemaOf(t, fresh); !slices.Equal(got, want) {
				t.Fatalf("the upgraded schema is not a fresh one's:\n%s", diffLines(got, want))
			}
			if after, want := havanaDay(t, old), havanaDay(t, fresh); after != want || (c.replaced != nil && before == after) {
				t.Fatalf("Havana's day starts %s before and %s after the upgrade; a fresh database says %s", before, after, want)
			}
			var missing int
			if err := old.QueryRow(ctx, `select count(*) from pipe.migrations where checksum is null`).Scan(&missing); err != nil || missing != 0 {
				t.Fatalf("%d migrations without a checksum (%v)", missing, err)
			}
			if again, err := pipeline.Migrate(ctx, old); err != nil || len(again) != 0 {
				t.Fatalf("a second migrate applied %v, %v", again, err)
			}
		})
	}
}

func TestMigrateRefusesADatabaseWhoseMigrationDiffers(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	if _, err := fixtures.Owner(t, pool).Exec(ctx, `update pipe.migrations set checksum = 'edited' where version = 7`); err != nil {
		t.Fatal(err)
	}
	_, err := pipeline.Migrate(ctx, pool)
	e, ok := errcode.As(err)
	if !ok || e.Code != errcode.MigrationChanged || e.Meta["version"] != "7" {
		t.Fatalf("%v; want X_MIGRATION_CHANGED naming version 7", err)
	}
}

func TestMigrateRefusesAMigrationBelowOneApplied(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	// As if 0012 were a migration added after 0013-0015 were applied.
	if _, err := fixtures.Owner(t, pool).Exec(ctx, `delete from pipe.migrations where version = 12`); err != nil {
		t.Fatal(err)
	}
	_, err := pipeline.Migrate(ctx, pool)
	e, ok := errcode.As(err)
	if !errors.Is(err, errcode.MigrationChanged) || !ok || e.Meta["version"] != "12" {
		t.Fatalf("%v; want X_MIGRATION_CHANGED naming version 12", err)
	}
}

// diffLines names the lines only one side holds.
func diffLines(got, want []string) string {
	var b strings.Builder
	for _, g := range got {
		if !slices.Contains(want, g) {
			b.WriteString("+ " + g + "\n")
		}
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			b.WriteString("- " + w + "\n")
		}
	}
	return b.String()
}
