package webhookbench

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"
)

// cpuMeter adds up the CPU time of this process and of the database
// sessions of its pool (the backends named as its connections are, read
// from /proc): what one delivery costs the machine, wherever it is spent.
// The backends' share is known only when the database runs on this machine
// and its processes' stat files can be read; ok says whether it was.
type cpuMeter struct {
	pool     *pgxpool.Pool
	backends map[int]int64 // CPU ns of each backend seen, at its last reading
	ok       bool
}

func newCPUMeter(pool *pgxpool.Pool) *cpuMeter {
	return &cpuMeter{pool: pool, backends: map[int]int64{}, ok: true}
}

// read answers this process's CPU time and its backends' so far, in ns.
func (m *cpuMeter) read(ctx context.Context) (process, database int64) {
	rows, err := m.pool.Query(ctx, `select pid from pg_stat_activity where application_name = current_setting('application_name')`)
	if err != nil {
		m.ok = false
		return processCPU(), 0
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
	return processCPU(), database
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
