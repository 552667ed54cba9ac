package pgserver

import (
	"context"
	"fmt"
	"os"
	"os/user"
	"path/filepath"

	"github.com/pipekit/pipe/errcode"
)

// Options configures [Start].
type Options struct {
	// Dir is the cluster's data directory; required. It is created (mode
	// 0700) and initialised when it holds no cluster. A lock file named
	// Dir+".lock" sits beside it.
	Dir string
	// Port is the TCP port on 127.0.0.1. Zero, the default, picks a free one.
	// A cluster found already running keeps the port it has.
	Port int
	// NoSync turns fsync off, in initdb and in the server: much faster, and a
	// machine crash can corrupt the cluster. For tests. Default false.
	NoSync bool
	// Settings are server settings, each name=value, passed to the server
	// as -c name=value when it starts (shared_buffers=16MB, say). A cluster
	// found already running keeps the settings it has. Default none.
	Settings []string
	// TLS, when set, has the server serve TLS (ssl=on) with this
	// certificate and key, written into the data directory (server.crt,
	// server.key) before each start. Clients may still connect without TLS;
	// [Server.URL] does. A cluster found already running keeps the files
	// and settings it has. Default nil: no TLS.
	TLS *TLS
	// Logf receives a line for each step taken. Nil, the default, discards them.
	Logf func(format string, args ...any)
}

// Server is a running private cluster.
type Server struct {
	dir     string
	port    int
	started bool
	opts    Options
	bins    binaries
	acct    *account
	logf    func(format string, args ...any)
}

// Start answers a running server for o.Dir: the one already running there, or
// one it starts, initialising the cluster first if Dir holds none. Processes
// starting the same Dir at once take turns under a file lock, so they share one
// server. A machine without PostgreSQL answers an
// [errcode.PostgresUnavailable] error whose fix says how to install it.
func Start(ctx context.Context, o Options) (*Server, error) {
	return start(ctx, o, systemFinder(), user.Lookup)
}

func start(ctx context.Context, o Options, f finder, lookup func(string) (*user.User, error)) (*Server, error) {
	if o.Dir == "" {
		return nil, errcode.New(errcode.ConfigInvalid, "no data directory given for the private PostgreSQL").
			WithFix("set Options.Dir")
	}
	dir, err := filepath.Abs(o.Dir)
	if err != nil {
		return nil, fmt.Errorf("data directory: %w", err)
	}
	bins, err := f.find()
	if err != nil {
		return nil, err
	}
	acct, err := runAccount(os.Geteuid(), lookup)
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir, opts: o, bins: bins, acct: acct, logf: o.Logf}
	if s.logf == nil {
		s.logf = func(string, ...any) {}
	}
	if err := s.open(ctx, o); err != nil {
		return nil, err
	}
	return s, nil
}

// open does the work of Start under the directory lock.
func (s *Server) open(ctx context.Context, o Options) error {
	if err := prepareDir(s.dir, s.acct); err != nil {
		return err
	}
	unlock, err := lockFile(s.dir + ".lock")
	if err != nil {
		return err
	}
	defer unlock()
	if port, ok := s.running(ctx); ok {
		s.logf("pgserver: reusing the server running in %s on port %d", s.dir, port)
		s.port = port
		return nil
	}
	if !initialized(s.dir) {
		if err := s.initdb(ctx, o.NoSync); err != nil {
			return err
		}
	}
	if err := s.writeTLS(); err != nil {
		return err
	}
	return s.launch(ctx, o.Port)
}

// running answers the port of a live server already serving the directory.
func (s *Server) running(ctx context.Context) (int, bool) {
	pf, ok := readPIDFile(s.dir)
	if !ok || !alive(pf.pid) {
		return 0, false
	}
	return pf.port, ping(ctx, pf.port) == nil
}

// URL answers the server's connection URL: user postgres, database postgres,
// TCP on 127.0.0.1, no TLS.
func (s *Server) URL() string { return urlFor(s.port) }

func urlFor(port int) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
}

// Port answers the server's TCP port on 127.0.0.1.
func (s *Server) Port() int { return s.port }

// Dir answers the absolute data directory.
func (s *Server) Dir() string { return s.dir }

// Started reports whether this Start launched the server; false means it
// found the server already running (another process may be using it).
func (s *Server) Started() bool { return s.started }

// Stop shuts the server down (pg_ctl stop -m fast), whichever process started
// it.
func (s *Server) Stop(ctx context.Context) error {
	s.logf("pgserver: stopping the server in %s", s.dir)
	if err := s.pgCtl(ctx, "-D", s.dir, "-m", "fast", "-w", "stop"); err != nil {
		return errcode.Wrap(err, errcode.PostgresUnavailable, "the private PostgreSQL did not stop").
			WithFix("read the server log (file \"log\" in the data directory)")
	}
	return nil
}
