package pgwake

import (
	"fmt"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// ServerOf names the server db (a pgx.Tx, *pgx.Conn or *pgxpool.Pool)
// talks to, without a round trip: the address a connection is connected
// to, or a pool's configured host and port; "" for anything else. A wake
// throttle keys its windows by it, so that a process's notifications to
// one server are spaced whatever handle sends them.
func ServerOf(db any) string {
	switch v := db.(type) {
	case pgx.Tx:
		return remoteAddr(v.Conn())
	case *pgx.Conn:
		return remoteAddr(v)
	case *pgxpool.Pool:
		if s, ok := poolServers.Load(v); ok {
			return s.(string)
		}
		cfg := v.Config().ConnConfig
		s := fmt.Sprintf("%s:%d", cfg.Host, cfg.Port)
		poolServers.Store(v, s)
		return s
	}
	return ""
}

// poolServers caches ServerOf per pool: a pool's Config is a copy.
var poolServers sync.Map

func remoteAddr(c *pgx.Conn) string {
	if c == nil || c.PgConn() == nil || c.PgConn().Conn() == nil {
		return ""
	}
	return c.PgConn().Conn().RemoteAddr().String()
}
