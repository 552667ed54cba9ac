package pgserver

import (
	"context"

	"github.com/pipekit/pipe/errcode"
)

// Restart restarts the server (pg_ctl restart -m fast), on its port and
// with the Options' settings: open connections are ended with SQLSTATE
// 57P01, connections tried while it starts up are refused with 57P03, and
// Restart returns once it accepts connections again.
func (s *Server) Restart(ctx context.Context) error {
	s.logf("pgserver: restarting the server in %s", s.dir)
	unlock, err := lockFile(s.dir + ".lock")
	if err != nil {
		return err
	}
	defer unlock()
	if err := s.pgCtl(ctx, s.ctlArgs("restart")...); err != nil {
		return errcode.Wrap(err, errcode.PostgresUnavailable, "the private PostgreSQL did not restart").WithFix(logFix)
	}
	return nil
}

// Resume starts the server again after [Server.Stop], on the port it had,
// with the Options' settings; a server found running is left as it is.
// It returns once the server accepts connections.
func (s *Server) Resume(ctx context.Context) error {
	unlock, err := lockFile(s.dir + ".lock")
	if err != nil {
		return err
	}
	defer unlock()
	if port, ok := s.running(ctx); ok && port == s.port {
		return nil
	}
	return s.launch(ctx, s.port)
}
