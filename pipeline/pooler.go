package pipeline

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
)

// poolerProbeWait bounds each statement of the pooler probe. Only a pooler
// with one server connection for the database makes a statement wait for
// another client's open transaction, so a wait that long is answered as
// pooled.
const poolerProbeWait = 2 * time.Second

// TransactionPooled reports whether cfg leads through a transaction pooler
// (PgBouncer with pool_mode = transaction, or one like it): a pooler that
// hands a client's transactions to whichever server connection is free, so
// that nothing of a session — a named prepared statement, a LISTEN, a
// session advisory lock — outlives a transaction.
//
// It asks with two connections of its own, a and b, in rounds: a reads its
// server's process id, then b holds a transaction open and reads its own,
// and a reads again. Straight to PostgreSQL, or through a session pooler,
// every client has a server of its own for as long as it is connected, so
// a's id never changes and b's is never a's. Through a transaction pooler
// b is handed the server a just gave back (PgBouncer hands out the most
// recently used first), or a comes back on another one. Another client
// can hide both in one round — it takes the server a gave back and returns
// it before a asks again, or a server it opened joins the pool — so a
// round begins with a asking afresh, and the probe asks in up to
// poolerProbeRounds rounds when the connection's cancel key does not name
// its own server (PgBouncer and its kind answer a key of their own; the
// server answers its process id). The probe costs two connections and a
// few round trips, once, at start.
func TransactionPooled(ctx context.Context, cfg *pgx.ConnConfig) (bool, error) {
	return probePooled(ctx, cfg, nil)
}

// poolerProbeRounds bounds the rounds of a probe whose cancel key does not
// name its server; directRounds those of one whose key does.
const (
	poolerProbeRounds = 20
	directRounds      = 3
)

// probePooled is TransactionPooled; afterFirst, when not nil, runs after
// a's first read (a test's other client, between the probe's statements).
func probePooled(ctx context.Context, cfg *pgx.ConnConfig, afterFirst func()) (bool, error) {
	a, err := pgx.ConnectConfig(ctx, probeConfig(cfg))
	if err != nil {
		return false, err
	}
	defer a.Close(context.WithoutCancel(ctx))
	b, err := pgx.ConnectConfig(ctx, probeConfig(cfg))
	if err != nil {
		return false, err
	}
	defer b.Close(context.WithoutCancel(ctx))
	first, err := backendPID(ctx, a)
	if err != nil {
		return false, err
	}
	rounds := poolerProbeRounds
	if a.PgConn().PID() == first {
		rounds = directRounds
	}
	if afterFirst != nil {
		afterFirst()
	}
	for i := range rounds {
		if i > 0 {
			now, err := backendPID(ctx, a)
			if err != nil || now != first {
				return err == nil, err
			}
		}
		pooled, err := probeRound(ctx, a, b, first)
		if pooled || err != nil {
			return pooled, err
		}
	}
	return false, nil
}

// probeRound holds a transaction open on b and reads both clients' server
// process ids: a shared or a moved server is a transaction pooler.
func probeRound(ctx context.Context, a, b *pgx.Conn, first uint32) (bool, error) {
	tx, err := b.Begin(ctx)
	if err != nil {
		return false, err
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // a read-only probe
	var other uint32
	if err := tx.QueryRow(ctx, "select pg_backend_pid()", pgx.QueryExecModeSimpleProtocol).Scan(&other); err != nil {
		return false, err
	}
	if other == first {
		return true, nil
	}
	wctx, cancel := context.WithTimeout(ctx, poolerProbeWait)
	defer cancel()
	again, err := backendPID(wctx, a)
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		return true, nil // waited for b's server: one server for both clients
	}
	if err != nil {
		return false, err
	}
	return again != first, nil
}

func backendPID(ctx context.Context, c *pgx.Conn) (uint32, error) {
	var pid uint32
	err := c.QueryRow(ctx, "select pg_backend_pid()", pgx.QueryExecModeSimpleProtocol).Scan(&pid)
	return pid, err
}

// probeConfig answers a copy of cfg whose connections prepare nothing.
func probeConfig(cfg *pgx.ConnConfig) *pgx.ConnConfig {
	c := cfg.Copy()
	c.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	return c
}

// PoolerSafe reports whether connections made with cfg work through a
// transaction pooler: they must not name prepared statements, which live
// in one server session. pgx's default mode (cache_statement) names them;
// cache_describe, describe_exec, exec and simple_protocol do not.
func PoolerSafe(cfg *pgx.ConnConfig) bool {
	return cfg.DefaultQueryExecMode != pgx.QueryExecModeCacheStatement
}

// ForPooler sets cfg to work through a transaction pooler, when it does
// not already: statements are described once a connection and cached, and
// sent unnamed (pgx's cache_describe), one round trip each as before.
func ForPooler(cfg *pgx.ConnConfig) {
	if !PoolerSafe(cfg) {
		cfg.DefaultQueryExecMode = pgx.QueryExecModeCacheDescribe
	}
}

// errPoolerUnsafe is a pool behind a transaction pooler whose connections
// name prepared statements.
func errPoolerUnsafe(what string) error {
	return errcode.New(errcode.ConfigInvalid,
		"%s: the database URL leads through a transaction pooler (such as PgBouncer with pool_mode = transaction), and the pool's connections name prepared statements, which a pooler hands to other clients", what).
		WithFix("add default_query_exec_mode=cache_describe to the pool's URL (or set ConnConfig.DefaultQueryExecMode), or use a direct or session-pooled URL")
}
