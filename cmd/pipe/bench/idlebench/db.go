package idlebench

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/pipeline"
)

// database is a fresh database of one component's, made through admin.
type database struct {
	admin *pgxpool.Pool
	name  string
	cfg   *pgxpool.Config
}

// freshDB creates and migrates a database for component, and answers it
// once the migration's sessions have left (their counts flushed).
func freshDB(ctx context.Context, admin *pgxpool.Pool, component string) (*database, error) {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	db := &database{admin: admin, name: "pipe_idle_" + component + "_" + hex.EncodeToString(b)}
	if _, err := admin.Exec(ctx, "create database "+pgx.Identifier{db.name}.Sanitize()); err != nil {
		return nil, fmt.Errorf("create the database (the bench's role needs CREATEDB): %w", err)
	}
	db.cfg = admin.Config().Copy()
	db.cfg.ConnConfig.Database = db.name
	db.cfg.ConnConfig.RuntimeParams["application_name"] = "pipe-bench-idle"
	pool, err := pgxpool.NewWithConfig(ctx, db.cfg)
	if err == nil {
		_, err = pipeline.Migrate(ctx, pool)
		pool.Close()
	}
	if err == nil {
		_, err = db.settled(ctx)
	}
	if err != nil {
		db.drop()
		return nil, err
	}
	return db, nil
}

// transactions answers the database's transactions so far, as far as its
// sessions have flushed their counts (an idle one within 10 s).
func (d *database) transactions(ctx context.Context) (int64, error) {
	var n int64
	err := d.admin.QueryRow(ctx, `select xact_commit + xact_rollback from pg_stat_database where datname = $1`, d.name).Scan(&n)
	return n, err
}

// settled waits for every session of the database to end — a session
// flushes its counts as it ends — and answers its transactions.
func (d *database) settled(ctx context.Context) (int64, error) {
	deadline := time.Now().Add(30 * time.Second)
	for {
		var left int
		if err := d.admin.QueryRow(ctx, `select count(*) from pg_stat_activity where datname = $1`, d.name).Scan(&left); err != nil {
			return 0, err
		}
		if left == 0 {
			break
		}
		if time.Now().After(deadline) {
			return 0, fmt.Errorf("%d sessions still on the bench's database after 30 s", left)
		}
		if err := sleep(ctx, 50*time.Millisecond); err != nil {
			return 0, err
		}
	}
	return d.transactions(ctx)
}

// drop drops the database, whatever is left on it.
func (d *database) drop() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, _ = d.admin.Exec(ctx, "drop database if exists "+pgx.Identifier{d.name}.Sanitize()+" with (force)")
}
