package storebench

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/pipeline"
)

// scratchPrefix starts the name of every database the bench makes; a
// random tag follows, so that two benches on one server never meet, then
// the store's role (full, empty).
const scratchPrefix = "pipe_bench_store_"

// appName names the bench's connections in pg_stat_activity.
const appName = "pipe/bench/store"

// scratch is one database the bench makes on the server it was pointed
// at, migrated, with a pool whose statements timer sees. The pool is
// pgxpool's default for the URL, as `pipe worker` opens it.
type scratch struct {
	name  string
	cfg   *pgxpool.Config
	pool  *pgxpool.Pool
	timer *stmtTimer
}

// scratchTag answers a random tag for one run's scratch databases.
func scratchTag() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return hex.EncodeToString(b)
}

// createScratch creates database name through admin (a connection to the
// server url reaches), migrates it and lays out its finished partitions
// for the fill (see resetPartitions). On an error it drops what it made.
func createScratch(ctx context.Context, admin *pgx.Conn, url, name string) (_ *scratch, err error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// the parse error may quote the URL, password and all
		return nil, errors.New("store bench: the database URL does not parse")
	}
	if _, err := admin.Exec(ctx, "create database "+pgx.Identifier{name}.Sanitize()); err != nil {
		return nil, fmt.Errorf("store bench: create the scratch database %s (the URL's user needs CREATEDB): %w", name, err)
	}
	s := &scratch{name: name, cfg: cfg, timer: &stmtTimer{}}
	defer func() {
		if err != nil {
			err = errors.Join(err, s.drop(admin))
		}
	}()
	cfg.ConnConfig.Database = name
	cfg.ConnConfig.RuntimeParams["application_name"] = appName
	cfg.ConnConfig.Tracer = s.timer
	if s.pool, err = pgxpool.NewWithConfig(ctx, cfg); err != nil {
		return s, err
	}
	if _, err := pipeline.Migrate(ctx, s.pool); err != nil {
		return s, fmt.Errorf("store bench: migrate %s: %w", name, err)
	}
	return s, resetPartitions(ctx, s.pool)
}

// connConfig answers a connection's configuration on s, untraced.
func (s *scratch) connConfig() *pgx.ConnConfig {
	c := s.cfg.ConnConfig.Copy()
	c.Tracer = nil
	return c
}

// newPool answers a second pool on s, untraced, of at most n connections.
func (s *scratch) newPool(ctx context.Context, n int32) (*pgxpool.Pool, error) {
	cfg := s.cfg.Copy()
	cfg.ConnConfig.Tracer = nil
	cfg.MaxConns = n
	return pgxpool.NewWithConfig(ctx, cfg)
}

// drop closes s's pool and drops its database, connections and all,
// whatever ctx the run ended with.
func (s *scratch) drop(admin *pgx.Conn) error {
	if s.pool != nil {
		s.pool.Close()
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := admin.Exec(ctx, "drop database if exists "+pgx.Identifier{s.name}.Sanitize()+" with (force)")
	if err != nil {
		return fmt.Errorf("store bench: drop the scratch database %s: %w", s.name, err)
	}
	return nil
}
