package rsstrim

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// Trim drops the resident pages of the executable's read-only mappings and
// answers how many bytes of mappings it advised. Errors are ignored: a
// mapping that cannot be advised simply stays resident.
func Trim() int64 {
	exe, err := os.Executable()
	if err != nil {
		return 0
	}
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return 0
	}
	var advised int64
	sc := bufio.NewScanner(bytes.NewReader(maps))
	for sc.Scan() {
		lo, hi, ok := readOnlyMapping(sc.Bytes(), exe)
		if !ok {
			continue
		}
		if madvise(lo, hi, syscall.MADV_RANDOM) == nil && madvise(lo, hi, syscall.MADV_DONTNEED) == nil {
			advised += int64(hi - lo)
		}
	}
	return advised
}

// readOnlyMapping parses one line of /proc/self/maps and answers its range
// when it maps file exe without write permission.
func readOnlyMapping(line []byte, exe string) (lo, hi uintptr, ok bool) {
	f := bytes.Fields(line)
	if len(f) < 6 || string(f[5]) != exe || bytes.IndexByte(f[1], 'w') >= 0 {
		return 0, 0, false
	}
	r := bytes.SplitN(f[0], []byte("-"), 2)
	if len(r) != 2 {
		return 0, 0, false
	}
	a, err1 := strconv.ParseUint(string(r[0]), 16, 64)
	b, err2 := strconv.ParseUint(string(r[1]), 16, 64)
	if err1 != nil || err2 != nil || b <= a {
		return 0, 0, false
	}
	return uintptr(a), uintptr(b), true
}

func madvise(lo, hi uintptr, advice int) error {
	_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, lo, hi-lo, uintptr(advice))
	if errno != 0 {
		return errno
	}
	return nil
}
