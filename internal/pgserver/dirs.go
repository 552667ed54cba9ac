package pgserver

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/pipekit/pipe/errcode"
)

// rootDir is the data directory for root: anything under /root (mode 0700)
// is out of the postgres OS user's reach.
const rootDir = "/var/lib/pipe/postgres"

// DefaultDir answers the command-line tool's data directory:
// $XDG_DATA_HOME/pipe/postgres, else ~/.local/share/pipe/postgres; for root,
// /var/lib/pipe/postgres.
func DefaultDir() (string, error) {
	return defaultDir(os.Geteuid(), os.Getenv, os.UserHomeDir)
}

func defaultDir(euid int, getenv func(string) string, home func() (string, error)) (string, error) {
	if euid == 0 {
		return rootDir, nil
	}
	// The XDG spec says a relative value is invalid and is to be ignored.
	if x := getenv("XDG_DATA_HOME"); filepath.IsAbs(x) {
		return filepath.Join(x, "pipe", "postgres"), nil
	}
	h, err := home()
	if err != nil {
		return "", errcode.Wrap(err, errcode.PostgresUnavailable, "no home directory for the private PostgreSQL").
			WithFix("set HOME or XDG_DATA_HOME, or pass --database-url / set DATABASE_URL")
	}
	return filepath.Join(h, ".local", "share", "pipe", "postgres"), nil
}

// prepareDir creates dir (0700) and its parents, and for root hands dir (and
// its parent, when created here) to the postgres user and checks that user
// can reach it.
func prepareDir(dir string, acct *account) error {
	parent := filepath.Dir(dir)
	_, err := os.Stat(parent)
	createdParent := errors.Is(err, fs.ErrNotExist)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("create data directory parent: %w", err)
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("create data directory: %w", err)
	}
	if err := acct.chown(dir); err != nil {
		return err
	}
	if createdParent {
		if err := acct.chown(parent); err != nil {
			return err
		}
	}
	return acct.checkReach(dir)
}
