package jobbench

import "fmt"

// CPU is the CPU time one item (a job) cost the machine: in this process
// (the worker) and in its database sessions.
type CPU struct {
	ProcessUs, DatabaseUs float64
	// DatabaseKnown says whether the database sessions' share was read
	// (the database runs on this machine and its /proc is readable).
	DatabaseKnown bool
}

func cpuPerItem(processNs, databaseNs int64, n int, known bool) CPU {
	return CPU{ProcessUs: float64(processNs) / float64(n) / 1e3, DatabaseUs: float64(databaseNs) / float64(n) / 1e3, DatabaseKnown: known}
}

// line says c as a figure's line ends: "CPU a job: 24 µs in the worker +
// 46 µs in its database sessions = 70 µs".
func (c CPU) line(item string) string {
	if !c.DatabaseKnown {
		return fmt.Sprintf("CPU a %s: %.0f µs in the worker (its database sessions' not readable here)", item, c.ProcessUs)
	}
	return fmt.Sprintf("CPU a %s: %.0f µs in the worker + %.0f µs in its database sessions = %.0f µs",
		item, c.ProcessUs, c.DatabaseUs, c.ProcessUs+c.DatabaseUs)
}
