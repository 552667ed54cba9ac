package filebench

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
)

// peakKiB answers the process's peak resident memory, VmHWM in
// /proc/self/status: everything the process held at its highest — heap,
// stacks, buffers and the binary's pages it touched — in KiB; 0 where there
// is no /proc.
func peakKiB() int64 {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for sc.Scan() {
		if v, ok := bytes.CutPrefix(sc.Bytes(), []byte("VmHWM:")); ok {
			f := bytes.Fields(v)
			if len(f) > 0 {
				n, _ := strconv.ParseInt(string(f[0]), 10, 64)
				return n
			}
		}
	}
	return 0
}

// Memory is a run's peak resident memory beside an idle pipe's, measured in
// the same bench run: Own, Peak less Idle, is what the work itself added.
type Memory struct {
	// PeakMiB is the run's process at its highest (VmHWM).
	PeakMiB float64 `json:"peakRssMiB"`
	// IdleMiB is the same binary's at its highest when it only connects
	// to the database and waits: start-up, the runtime and a connection.
	IdleMiB float64 `json:"idleRssMiB"`
	// OwnMiB is PeakMiB less IdleMiB: the work's own part.
	OwnMiB float64 `json:"ownRssMiB"`
}

func memory(peakKiB, idleKiB int64) Memory {
	return Memory{PeakMiB: mib(peakKiB), IdleMiB: mib(idleKiB), OwnMiB: mib(peakKiB - idleKiB)}
}

func mib(kib int64) float64 { return float64(kib) / 1024 }
