// Package benchcpu is the CPU time a bench's work costs the machine, split
// into this process's and its database sessions' (read from /proc when the
// database runs on this machine), so that a figure says where each
// microsecond of a run or a delivery went.
package benchcpu

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Meter adds up the CPU time of this process and of the database
// sessions of its pool (the backends named as its connections are, read
// from /proc): what one run or delivery costs the machine, wherever it is
// spent.
// The backends' share is known only when the database runs on this machine
// and its processes' stat files can be read; Known says whether it was.
type Meter struct {
	pool     *pgxpool.Pool
	sessions string // the query answering the backends' pids
	args     []any
	backends map[int]int64 // CPU ns of each backend seen, at its last reading
	ok       bool
}

// NewMeter answers a meter of this process and pool's sessions.
func NewMeter(pool *pgxpool.Pool) *Meter {
	return &Meter{pool: pool, sessions: `select pid from pg_stat_activity where application_name = current_setting('application_name')`,
		backends: map[int]int64{}, ok: true}
}

// NewDatabaseMeter answers a meter of this process and of every session on
// database datname, read through pool (a session elsewhere, so that the
// reading costs the measured database nothing).
func NewDatabaseMeter(pool *pgxpool.Pool, datname string) *Meter {
	return &Meter{pool: pool, sessions: `select pid from pg_stat_activity where datname = $1`, args: []any{datname},
		backends: map[int]int64{}, ok: true}
}

// Read answers this process's CPU time and its backends' so far, in ns.
func (m *Meter) Read(ctx context.Context) (process, database int64) {
	rows, err := m.pool.Query(ctx, m.sessions, m.args...)
	if err != nil {
		m.ok = false
		return Process(), 0
	}
	var pids []int
	for rows.Next() {
		var pid int
		if rows.Scan(&pid) == nil {
			pids = append(pids, pid)
		}
	}
	rows.Close()
	for _, pid := range pids {
		ns, err := procCPU(pid)
		if err != nil {
			m.ok = false
			continue
		}
		m.backends[pid] = ns
	}
	for _, ns := range m.backends {
		database += ns
	}
	return Process(), database
}

// procCPU answers the user and system CPU time of process pid, in ns, from
// /proc/<pid>/stat (in clock ticks of 1/100 s, as Linux reports them).
func procCPU(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+2 > len(s) {
		return 0, fmt.Errorf("an unreadable stat line")
	}
	f := strings.Fields(s[i+2:])
	if len(f) < 13 {
		return 0, fmt.Errorf("an unreadable stat line")
	}
	user, err1 := strconv.ParseInt(f[11], 10, 64)
	sys, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("an unreadable stat line")
	}
	return (user + sys) * 10_000_000, nil
}

// Known tells whether every reading saw the database sessions' CPU time.
func (m *Meter) Known() bool { return m.ok }
