package filebench

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"sync/atomic"
	"time"
)

// anonPeak samples the process's anonymous resident memory (RssAnon in
// /proc/self/status: the heap, stacks and buffers, not the binary's code
// paged in) until stop is closed, and answers the highest sample in KiB.
func anonPeak(stop <-chan struct{}) *atomic.Int64 {
	var peak atomic.Int64
	go func() {
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			if kb := rssAnonKiB(); kb > peak.Load() {
				peak.Store(kb)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	return &peak
}

func rssAnonKiB() int64 {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for sc.Scan() {
		if v, ok := bytes.CutPrefix(sc.Bytes(), []byte("RssAnon:")); ok {
			f := bytes.Fields(v)
			if len(f) > 0 {
				n, _ := strconv.ParseInt(string(f[0]), 10, 64)
				return n
			}
		}
	}
	return 0
}
