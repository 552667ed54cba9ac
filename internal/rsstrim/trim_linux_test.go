package rsstrim

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"testing"
)

// Trim advises the executable's read-only mappings and the process's
// file-backed resident memory drops; anonymous memory is left alone.
func TestTrimDropsTheExecutablesResidentPages(t *testing.T) {
	fileBefore, anonBefore := status(t, "RssFile:"), status(t, "RssAnon:")
	advised := Trim()
	fileAfter, anonAfter := status(t, "RssFile:"), status(t, "RssAnon:")
	if advised <= 0 {
		t.Fatalf("Trim advised %d bytes; want the executable's mappings", advised)
	}
	if fileAfter >= fileBefore {
		t.Fatalf("RssFile %d KiB before Trim, %d after; want it lower", fileBefore, fileAfter)
	}
	if anonAfter < anonBefore/2 {
		t.Fatalf("RssAnon %d KiB before Trim, %d after: anonymous memory must stay", anonBefore, anonAfter)
	}
}

func TestReadOnlyMappingPicksTheExecutablesUnwritableLines(t *testing.T) {
	exe := "/usr/bin/pipe"
	for line, want := range map[string]bool{
		"00400000-00452000 r-xp 00000000 08:02 173521 /usr/bin/pipe":    true,
		"00652000-00653000 r--p 00052000 08:02 173521 /usr/bin/pipe":    true,
		"00653000-00654000 rw-p 00053000 08:02 173521 /usr/bin/pipe":    false,
		"7f2c1000-7f2c2000 r-xp 00000000 08:02 173522 /usr/lib/libc.so": false,
		"7ffd1000-7ffd2000 rw-p 00000000 00:00 0 [stack]":               false,
		"zz-00452000 r-xp 00000000 08:02 173521 /usr/bin/pipe":          false,
	} {
		if _, _, ok := readOnlyMapping([]byte(line), exe); ok != want {
			t.Errorf("%q: %v, want %v", line, ok, want)
		}
	}
}

func status(t *testing.T, field string) int64 {
	t.Helper()
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for sc.Scan() {
		if v, ok := bytes.CutPrefix(sc.Bytes(), []byte(field)); ok {
			n, err := strconv.ParseInt(string(bytes.Fields(v)[0]), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatalf("no %s in /proc/self/status", field)
	return 0
}
