package pgserver

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/pipekit/pipe/errcode"
)

const logFix = "read the server log (file \"log\" in the data directory); to start over, remove the data directory"

// initialized reports whether dir holds a cluster.
func initialized(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "PG_VERSION"))
	return err == nil
}

// initdb creates the cluster: superuser postgres, trust authentication (it
// only listens on 127.0.0.1 and its own socket), UTF-8 and the C locale, so
// it needs no OS locale and sorts alike on every machine.
func (s *Server) initdb(ctx context.Context, noSync bool) error {
	s.logf("pgserver: initialising a cluster in %s", s.dir)
	args := []string{"-D", s.dir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C"}
	if noSync {
		args = append(args, "--no-sync")
	}
	if err := s.run(ctx, s.bins.initdb, args...); err != nil {
		return errcode.Wrap(err, errcode.PostgresUnavailable, "initdb failed").
			WithFix("check the data directory is empty and writable, or pass --database-url / set DATABASE_URL")
	}
	return nil
}

// launch starts the server, trying fresh ports when none was asked for (a
// picked port can be taken before the server binds it).
func (s *Server) launch(ctx context.Context, port int) error {
	tries := 1
	if port == 0 {
		tries = 3
	}
	var err error
	for range tries {
		if s.port, err = choosePort(port); err != nil {
			return err
		}
		s.logf("pgserver: starting the server in %s on port %d", s.dir, s.port)
		if err = s.pgCtl(ctx, s.ctlArgs("start")...); err == nil {
			s.started = true
			return nil
		}
	}
	return errcode.Wrap(err, errcode.PostgresUnavailable, "the private PostgreSQL did not start").WithFix(logFix)
}

// ctlArgs answers pg_ctl's arguments for action (start or restart): the
// server's port, socket directory, address, fsync and settings, its log,
// and -w to wait until it accepts connections.
func (s *Server) ctlArgs(action string) []string {
	fsync := "on"
	if s.opts.NoSync {
		fsync = "off"
	}
	// pg_ctl hands -o to a shell, so the socket directory and the settings
	// are quoted.
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=%s",
		s.port, shellQuote(socketDir(s.dir)), fsync)
	if s.opts.TLS != nil {
		opts += " -c ssl=on"
	}
	for _, kv := range s.opts.Settings {
		opts += " -c " + shellQuote(kv)
	}
	args := []string{"-D", s.dir, "-o", opts, "-l", filepath.Join(s.dir, "log"), "-w"}
	if action == "restart" {
		args = append(args, "-m", "fast")
	}
	return append(args, action)
}

// socketDir answers where the Unix socket goes: the data directory, or
// nowhere when its path would pass the 107-byte socket path limit (clients
// here use TCP).
func socketDir(dir string) string {
	if len(dir)+len("/.s.PGSQL.65535") > 107 {
		return ""
	}
	return dir
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// pgCtl runs pg_ctl.
func (s *Server) pgCtl(ctx context.Context, args ...string) error {
	return s.run(ctx, s.bins.pgCtl, args...)
}

// run runs a program as the cluster's account, its output kept for the error.
func (s *Server) run(ctx context.Context, bin string, args ...string) error {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = "/"
	cmd.SysProcAttr = s.acct.procAttr()
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s: %w: %s", filepath.Base(bin), err, bytes.TrimSpace(out))
	}
	return nil
}
