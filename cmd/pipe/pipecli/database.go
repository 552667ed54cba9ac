package pipecli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/internal/pgserver"
	"github.com/pipekit/pipe/pipeline"
)

// connectTimeout bounds reaching the database: starting the private cluster
// (initdb included on a first run) and the first ping.
const connectTimeout = 2 * time.Minute

// schemaNeed says what a command needs of pipe's schema.
type schemaNeed int

const (
	// migrated: an explicit database must already be migrated; the embedded
	// default is migrated on the spot.
	migrated schemaNeed = iota
	// anySchema: the command migrates, or does not care.
	anySchema
)

// source says where the database URL came from, for messages: never the URL
// itself, which may hold a password.
type source string

const (
	fromFlag     source = "--database-url"
	fromEnv      source = "DATABASE_URL"
	fromEmbedded source = "the private PostgreSQL"
)

// connect answers a pool on the command's database, checked or migrated as
// need says. The caller closes it.
func (a *app) connect(ctx context.Context, need schemaNeed) (*pgxpool.Pool, error) {
	url, src, err := a.resolveURL(ctx)
	if err != nil {
		return nil, err
	}
	pool, err := open(ctx, url, src, a.appName())
	if err != nil {
		return nil, err
	}
	if need == migrated {
		if src == fromEmbedded {
			_, err = pipeline.Migrate(ctx, pool)
		} else {
			err = checkMigrated(ctx, pool)
		}
	}
	if err != nil {
		pool.Close()
		return nil, err
	}
	return pool, nil
}

// resolveURL answers --database-url, else DATABASE_URL, else the URL of the
// private cluster, started (or found running) in the data directory.
func (a *app) resolveURL(ctx context.Context) (string, source, error) {
	if a.databaseURL != "" {
		return a.databaseURL, fromFlag, nil
	}
	if u := os.Getenv("DATABASE_URL"); u != "" {
		return u, fromEnv, nil
	}
	dir := a.opts.DataDir
	if dir == "" {
		var err error
		if dir, err = pgserver.DefaultDir(); err != nil {
			return "", "", err
		}
	}
	ctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	srv, err := pgserver.Start(ctx, pgserver.Options{Dir: dir})
	if err != nil {
		return "", "", asUnavailable(err, "the private PostgreSQL did not start")
	}
	a.clusterDir = srv.Dir()
	if srv.Started() {
		stop := "pg_ctl stop -D " + srv.Dir()
		if os.Geteuid() == 0 {
			stop = "su postgres -c '" + stop + "'" // the cluster runs as the postgres user
		}
		fmt.Fprintf(a.stderr, "pipe: started the private PostgreSQL in %s; it keeps running for the next command (stop it with %s)\n",
			srv.Dir(), stop)
	}
	return srv.URL(), fromEmbedded, nil
}

// open parses url and answers a pool that has answered a ping, its
// connections named app in pg_stat_activity unless the URL (or PGAPPNAME)
// names them.
func open(ctx context.Context, url string, src source, app string) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		if refused := caFileRefusal(err, src); refused != nil {
			return nil, refused
		}
		// The parse error may quote the URL, password and all: keep it out.
		return nil, errcode.Wrap(err, errcode.ConfigInvalid, "the database URL from %s does not parse", src).
			WithFix("pass a URL such as postgres://user@host:5432/dbname, or a keyword/value string such as host=... dbname=...")
	}
	if _, named := cfg.ConnConfig.RuntimeParams["application_name"]; !named {
		cfg.ConnConfig.RuntimeParams["application_name"] = app
	}
	if src != fromEmbedded { // the private cluster has no pooler in front of it
		forPooler(ctx, cfg.ConnConfig)
	}
	cfg.ShouldPing = shouldPing
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, errcode.Wrap(err, errcode.ConfigInvalid, "the database URL from %s is not usable", src).
			WithFix("check the URL's parameters")
	}
	pingCtx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	if err := pool.Ping(pingCtx); err != nil {
		pool.Close()
		cc := cfg.ConnConfig
		if refused := tlsRefusal(err, &cc.Config, src); refused != nil {
			return nil, refused
		}
		return nil, errcode.Wrap(err, errcode.PostgresUnavailable, "cannot reach database %s on %s:%d (URL from %s): %s",
			cc.Database, cc.Host, cc.Port, src, driverReason(err)).
			WithFix("check that the server is running and the URL's host, port, user and password; " +
				"or leave --database-url and DATABASE_URL unset to use the private PostgreSQL")
	}
	return pool, nil
}

// pingIdle is how long a connection may have been idle before the pool
// pings it when it is handed out. pgxpool's default, a second, pinged the
// connection of nearly every statement an idle worker makes (a claim every
// 5 s, its presence every 10 s): twice the transactions it needs. A
// connection a restart killed inside that time fails its statement instead,
// which the worker retries on a new one (20 ms on) and logs as an outage.
const pingIdle = 30 * time.Second

func shouldPing(_ context.Context, p pgxpool.ShouldPingParams) bool { return p.IdleDuration > pingIdle }

// appName answers the application_name of the command's connections:
// pipe/import, pipe/worker, pipe/subject/erase — what a DBA reads in
// pg_stat_activity.
func (a *app) appName() string {
	name := strings.ReplaceAll(a.command, " ", "/")
	if name == "" {
		name = "pipe"
	}
	return name
}

// checkMigrated refuses a database whose pipe schema is missing or older
// than this pipe's migrations, and a role that lacks a right `pipe grants`
// gives (X_POSTGRES_PERMISSION, its fix naming the role).
func checkMigrated(ctx context.Context, pool *pgxpool.Pool) error {
	want := pipeline.LatestMigration()
	var have *int
	err := pool.QueryRow(ctx, `select max(version) from pipe.migrations`).Scan(&have)
	var pgErr *pgconn.PgError
	switch {
	case errors.As(err, &pgErr) && (pgErr.Code == "42P01" || pgErr.Code == "3F000"):
		return notMigrated("the database has no pipe schema")
	case errors.As(err, &pgErr) && pgErr.Code == "42501":
		return pipeline.CheckGrants(ctx, pool)
	case err != nil:
		return errcode.Wrap(err, errcode.PostgresUnavailable, "read the schema version: %s", driverReason(err)).
			WithFix("check the database connection and the user's rights on schema pipe")
	case have == nil || *have < want:
		v := 0
		if have != nil {
			v = *have
		}
		return notMigrated(fmt.Sprintf("the pipe schema is at version %d; this pipe needs version %d", v, want))
	}
	return pipeline.CheckGrants(ctx, pool)
}

func notMigrated(msg string) error {
	return errcode.New(errcode.ConfigInvalid, "%s", msg).WithFix("run `pipe migrate`")
}

// asUnavailable answers a coded error as it is, and codes any other.
func asUnavailable(err error, msg string) error {
	if _, ok := errcode.As(err); ok {
		return err
	}
	return errcode.Wrap(err, errcode.PostgresUnavailable, "%s: %v", msg, err).
		WithFix("read the server log (file \"log\" in the data directory), or pass --database-url")
}

// driverReason answers what went wrong talking to the server without the
// server's message, which may quote a value: the SQLSTATE, or the kind of
// failure.
func driverReason(err error) string {
	var pgErr *pgconn.PgError
	switch {
	case errors.As(err, &pgErr):
		if why, ok := sqlStates[pgErr.Code]; ok {
			return why + " (SQLSTATE " + pgErr.Code + ")"
		}
		return "SQLSTATE " + pgErr.Code
	case errors.Is(err, context.DeadlineExceeded):
		return "timed out"
	case errors.Is(err, context.Canceled):
		return "cancelled"
	}
	// A failure to connect names the address and the network's complaint
	// (connection refused, no such host): no data.
	var connErr *pgconn.ConnectError
	if errors.As(err, &connErr) && connErr.Unwrap() != nil {
		return connErr.Unwrap().Error()
	}
	return "database error"
}

// sqlStates names the SQLSTATEs a connection most often meets.
var sqlStates = map[string]string{
	"28P01": "password authentication failed",
	"28000": "the server refused the user",
	"3D000": "no such database",
	"42501": "permission denied",
	"57P03": "the server is starting up",
	"53300": "too many connections",
}
