package pipeline

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pipekit/pipe/errcode"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrateLock is the advisory lock key every migrating process takes, so two
// processes migrating at once apply each version once.
const migrateLock = 7_401_190_238_117

type migration struct {
	version  int
	name     string
	sql      string
	checksum string // see checksumOf
}

// Migrate applies pipe's embedded migrations to the database db reaches,
// inside one transaction under an advisory lock. Everything lands in the
// "pipe" schema. Re-running is a no-op; two processes migrating at once are
// safe (the second waits, then finds nothing to do). It answers the versions
// it applied.
//
// Released migrations are frozen: each applied migration's checksum is
// recorded, and a database whose applied migration differs from the file of
// the same version is refused before anything is applied, with
// X_MIGRATION_CHANGED naming the version (Meta "version"); so is a migration
// older than the newest one the database has, which would run out of order.
// A database migrated before checksums were recorded (migration 13) gets
// them on its upgrade.
func Migrate(ctx context.Context, db DB) ([]int, error) {
	all, err := loadMigrations()
	if err != nil {
		return nil, err
	}
	tx, err := db.Begin(ctx)
	if err != nil {
		return nil, migrateErr(err, "begin")
	}
	defer func() { _ = tx.Rollback(ctx) }()
	if _, err := tx.Exec(ctx, `select pg_advisory_xact_lock($1)`, int64(migrateLock)); err != nil {
		return nil, migrateErr(err, "lock")
	}
	if err := bootstrap(ctx, tx); err != nil {
		return nil, err
	}
	done, err := readApplied(ctx, tx)
	if err != nil {
		return nil, err
	}
	pending, err := pendingMigrations(all, done)
	if err != nil {
		return nil, err
	}
	var applied []int
	for _, m := range pending {
		if _, err := tx.Exec(ctx, m.sql); err != nil {
			return nil, migrateErr(err, fmt.Sprintf("apply %04d_%s", m.version, m.name))
		}
		if _, err := tx.Exec(ctx, `insert into pipe.migrations (version, name) values ($1, $2)`, m.version, m.name); err != nil {
			return nil, migrateErr(err, "record")
		}
		applied = append(applied, m.version)
	}
	if err := recordChecksums(ctx, tx, all); err != nil {
		return nil, err
	}
	if err := tx.Commit(ctx); err != nil {
		return nil, migrateErr(err, "commit")
	}
	return applied, nil
}

// LatestMigration answers the newest embedded migration version.
func LatestMigration() int {
	all, _ := loadMigrations()
	if len(all) == 0 {
		return 0
	}
	return all[len(all)-1].version
}

// bootstrap makes the schema and the migrations table unless the table is
// there: a role that does not own the schema may then call Migrate on an
// up-to-date database, which writes nothing.
func bootstrap(ctx context.Context, tx pgx.Tx) error {
	var exists bool
	if err := tx.QueryRow(ctx, `select to_regclass('pipe.migrations') is not null`).Scan(&exists); err != nil || exists {
		return migrateErr(err, "bootstrap")
	}
	_, err := tx.Exec(ctx, bootstrapSQL)
	return migrateErr(err, "bootstrap")
}

// bootstrapSQL is the migrations table as it was first released; migration
// 13 adds its checksum column.
const bootstrapSQL = `
create schema if not exists pipe;
create table if not exists pipe.migrations (
    version    integer     primary key,
    name       text        not null,
    applied_at timestamptz not null default now()
)`

func loadMigrations() ([]migration, error) {
	entries, err := fs.ReadDir(migrationFiles, "migrations")
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, e := range entries {
		base := strings.TrimSuffix(e.Name(), ".sql")
		num, name, ok := strings.Cut(base, "_")
		v, convErr := strconv.Atoi(num)
		if !ok || convErr != nil {
			return nil, errcode.New(errcode.MigrationFailed, "migration file %s is not named NNNN_name.sql", e.Name())
		}
		body, err := migrationFiles.ReadFile("migrations/" + e.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: name, sql: string(body), checksum: checksumOf(body)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	return out, nil
}

func migrateErr(err error, what string) error {
	if err == nil {
		return nil
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "42501" {
		return errcode.Wrap(err, errcode.MigrationFailed, "migrate: %s: the role may not change schema pipe (SQLSTATE 42501)", what).
			WithFix("run `pipe migrate` as the owner of schema pipe; a role that runs the workers holds only what `pipe grants` prints")
	}
	return errcode.Wrap(err, errcode.MigrationFailed, "migrate: %s", what).
		WithFix("check that the database user may create a schema, then run `pipe migrate` again")
}
