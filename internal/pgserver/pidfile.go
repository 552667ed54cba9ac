package pgserver

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// pidFile is what postmaster.pid says about a running server: line 1 is the
// process id, line 4 the TCP port.
type pidFile struct {
	pid  int
	port int
}

// readPIDFile answers the server's pid file, and false when there is none or
// it cannot be read as one.
func readPIDFile(dir string) (pidFile, bool) {
	b, err := os.ReadFile(filepath.Join(dir, "postmaster.pid"))
	if err != nil {
		return pidFile{}, false
	}
	return parsePIDFile(string(b))
}

func parsePIDFile(s string) (pidFile, bool) {
	lines := strings.Split(s, "\n")
	if len(lines) < 4 {
		return pidFile{}, false
	}
	pid, pidErr := strconv.Atoi(strings.TrimSpace(lines[0]))
	port, portErr := strconv.Atoi(strings.TrimSpace(lines[3]))
	if pidErr != nil || portErr != nil || pid <= 0 || port <= 0 {
		return pidFile{}, false
	}
	return pidFile{pid: pid, port: port}, true
}

// alive answers whether a process with the pid exists (EPERM: it does, owned
// by another user).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
