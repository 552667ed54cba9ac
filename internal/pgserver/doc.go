// Package pgserver runs pipe's embedded default: a private PostgreSQL
// cluster, created and started from the machine's own PostgreSQL binaries,
// for when no database URL is given.
//
// # Binaries
//
// initdb and pg_ctl are taken from PATH, else from the newest
// /usr/lib/postgresql/<version>/bin (versions compared as numbers, so 16 is
// newer than 9.6). A machine with neither answers an
// [errcode.PostgresUnavailable] error whose fix says how to install
// PostgreSQL or how to point pipe at a server instead.
//
// # The cluster
//
// [Start] initialises the data directory when it holds no cluster (superuser
// postgres, trust authentication, UTF-8, C locale) and starts the server on
// 127.0.0.1 with its Unix socket in the data directory and its log in
// Dir/log. Trust is safe only because the server listens on loopback alone;
// any local user can connect, so it is a developer's and a test's database,
// not a production one.
//
// A directory whose server is already running (postmaster.pid names a live
// process and the server answers on the port it records) is reused, not
// started twice; [Server.Started] tells the two cases apart, so a caller can
// leave running a server it did not start. Processes starting the same
// directory at once take turns under an flock on Dir+".lock", so two of them
// never initialise or start one cluster together.
//
// [Server.Restart] restarts a server (pg_ctl restart -m fast) and
// [Server.Resume] starts one again after [Server.Stop], each on the port it
// had and with [Options.Settings], for tests that take the server away
// under their clients.
//
// # Running as root
//
// initdb and postgres refuse to run as root. Run as root, pgserver runs them
// as the postgres OS user (an error with a fix when there is none), hands the
// data directory to that user and checks that user may enter every directory
// above it. [DefaultDir] answers /var/lib/pipe/postgres for root rather than
// a directory under /root, which the postgres user cannot enter.
//
// # Data directory
//
// [DefaultDir] is the command-line tool's directory:
// $XDG_DATA_HOME/pipe/postgres, else ~/.local/share/pipe/postgres; for root,
// /var/lib/pipe/postgres. A caller that starts a server leaves it running or
// stops it:
//
//	srv, err := pgserver.Start(ctx, pgserver.Options{Dir: dir})
//	if err != nil {
//		return err
//	}
//	if srv.Started() {
//		defer srv.Stop(context.Background())
//	}
//	pool, err := pgxpool.New(ctx, srv.URL())
package pgserver
