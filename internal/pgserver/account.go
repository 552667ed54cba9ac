package pgserver

import (
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/pipekit/pipe/errcode"
)

// account is the OS user the PostgreSQL programs run as when pipe runs as
// root (initdb and postgres refuse to run as root). A nil *account means the
// current user.
type account struct {
	uid, gid uint32
}

// runAccount answers nil for an ordinary user and the postgres OS user for
// root. lookup is user.Lookup outside tests.
func runAccount(euid int, lookup func(string) (*user.User, error)) (*account, error) {
	if euid != 0 {
		return nil, nil
	}
	u, err := lookup("postgres")
	if err != nil {
		return nil, errcode.Wrap(err, errcode.PostgresUnavailable, "running as root and no postgres OS user exists").
			WithFix("run pipe as an ordinary user, create a postgres OS user (installing the PostgreSQL server package does), " +
				"or pass --database-url / set DATABASE_URL")
	}
	uid, uidErr := strconv.ParseUint(u.Uid, 10, 32)
	gid, gidErr := strconv.ParseUint(u.Gid, 10, 32)
	if uidErr != nil || gidErr != nil {
		return nil, errcode.New(errcode.PostgresUnavailable, "the postgres OS user has no numeric uid and gid").
			WithFix("run pipe as an ordinary user, or pass --database-url / set DATABASE_URL")
	}
	return &account{uid: uint32(uid), gid: uint32(gid)}, nil
}

// procAttr runs a child as the account, in its own process group: a Ctrl-C
// meant for pipe does not reach the server pg_ctl starts; Stop ends it.
func (a *account) procAttr() *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{Setpgid: true}
	if a != nil {
		attr.Credential = &syscall.Credential{Uid: a.uid, Gid: a.gid}
	}
	return attr
}

func (a *account) chown(path string) error {
	if a == nil {
		return nil
	}
	if err := os.Chown(path, int(a.uid), int(a.gid)); err != nil {
		return fmt.Errorf("chown data directory: %w", err)
	}
	return nil
}

// checkReach answers an error unless the account may enter every directory
// above dir; root can create a data directory the postgres user cannot reach
// (anything under a 0700 /root, for one).
func (a *account) checkReach(dir string) error {
	if a == nil {
		return nil
	}
	for p := filepath.Dir(dir); ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		if err != nil {
			return fmt.Errorf("stat data directory parent: %w", err)
		}
		if !a.mayEnter(fi) {
			return errcode.New(errcode.PostgresUnavailable, "the postgres OS user cannot reach the data directory").
				WithFix("choose a data directory whose every parent the postgres user may enter (chmod o+x), for example under /var/lib")
		}
		if p == filepath.Dir(p) {
			return nil
		}
	}
}

func (a *account) mayEnter(fi os.FileInfo) bool {
	perm := fi.Mode().Perm()
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case ok && st.Uid == a.uid:
		return perm&0o100 != 0
	case ok && st.Gid == a.gid:
		return perm&0o010 != 0
	}
	return perm&0o001 != 0
}
