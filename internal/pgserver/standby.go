package pgserver

import (
	"context"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strconv"

	"github.com/pipekit/pipe/errcode"
)

// StandbyOptions configures [StartStandby].
type StandbyOptions struct {
	// Dir is the standby's data directory; required. A lock file named
	// Dir+".lock" sits beside it.
	Dir string
	// PrimaryPort is the port on 127.0.0.1 of the running primary it
	// streams from (a [Server] of this package: superuser postgres, trust,
	// which lets a replication connection in from 127.0.0.1). Required.
	PrimaryPort int
	// Port is the standby's own port; zero picks a free one.
	Port int
	// NoSync and Settings are as [Options] has them.
	NoSync   bool
	Settings []string
	// Fresh stops a standby found running and copies it afresh: for a
	// primary just started, perhaps on another port than the standby
	// streams from. Default false.
	Fresh bool
	// Logf is as [Options] has it.
	Logf func(format string, args ...any)
}

// StartStandby answers a running streaming standby of the primary on
// o.PrimaryPort: the one already running in o.Dir, or a new one copied with
// pg_basebackup -R (which writes standby.signal and primary_conninfo) and
// started. A directory holding a standby that is not running is removed
// and copied afresh: its primary may have moved to another port since.
func StartStandby(ctx context.Context, o StandbyOptions) (*Server, error) {
	if o.Dir == "" || o.PrimaryPort <= 0 {
		return nil, errcode.New(errcode.ConfigInvalid, "a standby needs a data directory and its primary's port").
			WithFix("set StandbyOptions.Dir and StandbyOptions.PrimaryPort")
	}
	dir, err := filepath.Abs(o.Dir)
	if err != nil {
		return nil, fmt.Errorf("data directory: %w", err)
	}
	bins, err := systemFinder().find()
	if err != nil {
		return nil, err
	}
	acct, err := runAccount(os.Geteuid(), user.Lookup)
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir, bins: bins, acct: acct, logf: o.Logf,
		opts: Options{Dir: dir, Port: o.Port, NoSync: o.NoSync, Settings: o.Settings}}
	if s.logf == nil {
		s.logf = func(string, ...any) {}
	}
	return s, s.openStandby(ctx, o)
}

// openStandby does the work of StartStandby under the directory lock.
func (s *Server) openStandby(ctx context.Context, o StandbyOptions) error {
	unlock, err := lockFile(s.dir + ".lock")
	if err != nil {
		return err
	}
	defer unlock()
	if port, ok := s.running(ctx); ok {
		if !o.Fresh {
			s.logf("pgserver: reusing the standby running in %s on port %d", s.dir, port)
			s.port = port
			return nil
		}
		if err := s.pgCtl(ctx, "-D", s.dir, "-m", "immediate", "-w", "stop"); err != nil {
			return errcode.Wrap(err, errcode.PostgresUnavailable, "the old standby did not stop").WithFix(logFix)
		}
	}
	if err := os.RemoveAll(s.dir); err != nil {
		return fmt.Errorf("remove the old standby: %w", err)
	}
	if err := prepareDir(s.dir, s.acct); err != nil {
		return err
	}
	if err := s.baseBackup(ctx, o.PrimaryPort); err != nil {
		return err
	}
	return s.launch(ctx, o.Port)
}

// baseBackup copies the primary into the data directory, WAL streamed
// alongside, and writes the standby's recovery settings.
func (s *Server) baseBackup(ctx context.Context, primary int) error {
	s.logf("pgserver: copying the primary on port %d into %s", primary, s.dir)
	bin := s.bins.sibling("pg_basebackup")
	args := []string{"-D", s.dir, "-h", "127.0.0.1", "-p", strconv.Itoa(primary), "-U", "postgres",
		"-R", "-X", "stream", "-c", "fast"}
	if s.opts.NoSync {
		args = append(args, "--no-sync")
	}
	if err := s.run(ctx, bin, args...); err != nil {
		return errcode.Wrap(err, errcode.PostgresUnavailable, "pg_basebackup failed").
			WithFix("check the primary runs and lets a replication connection in from 127.0.0.1 (pg_hba.conf, max_wal_senders)")
	}
	return nil
}

// Promote ends a standby's recovery (pg_ctl promote -w): it becomes a
// primary that accepts writes, and Promote returns once it does.
func (s *Server) Promote(ctx context.Context) error {
	s.logf("pgserver: promoting the standby in %s", s.dir)
	if err := s.pgCtl(ctx, "-D", s.dir, "-w", "promote"); err != nil {
		return errcode.Wrap(err, errcode.PostgresUnavailable, "the standby was not promoted").WithFix(logFix)
	}
	return nil
}

// sibling answers the program name installed beside pg_ctl (a symlinked
// pg_ctl is followed to its installation's directory).
func (b binaries) sibling(name string) string {
	ctl := b.pgCtl
	if real, err := filepath.EvalSymlinks(ctl); err == nil {
		ctl = real
	}
	return filepath.Join(filepath.Dir(ctl), name)
}
