package pipecli

import (
	"context"
	"os"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// forPooler readies cfg for a transaction pooler (PgBouncer with pool_mode
// = transaction) when its URL leads through one: statements go unnamed
// (pgx's cache_describe), for a statement prepared under a name lives in
// one server's session, and the pooler hands the next transaction to
// another. A URL that already names such a mode is not probed. A probe that
// cannot connect changes nothing: the ping that follows says why.
func forPooler(ctx context.Context, cfg *pgx.ConnConfig) {
	if pipeline.PoolerSafe(cfg) {
		return
	}
	if pooled, err := pipeline.TransactionPooled(ctx, cfg); err == nil && pooled {
		pipeline.ForPooler(cfg)
	}
}

// listenConfig answers the connection settings of --listen-url, else
// PIPE_LISTEN_URL, else nil (the worker listens on its database URL).
func (a *app) listenConfig() (*pgx.ConnConfig, error) {
	u, from := a.listenURL, "--listen-url"
	if u == "" {
		u, from = os.Getenv("PIPE_LISTEN_URL"), "PIPE_LISTEN_URL"
	}
	if u == "" {
		return nil, nil
	}
	cfg, err := pgx.ParseConfig(u)
	if err != nil {
		// The parse error may quote the URL, password and all: keep it out.
		return nil, errcode.Wrap(err, errcode.ConfigInvalid, "the listen URL from %s does not parse", from).
			WithFix("pass a direct or session-pooled PostgreSQL URL such as postgres://user@host:5432/dbname")
	}
	return cfg, nil
}
