package pgserver

import (
	"os"
	"testing"
)

func TestParsePIDFile(t *testing.T) {
	t.Parallel()
	pf, ok := parsePIDFile("4242\n/var/lib/pg\n1700000000\n54321\n/var/lib/pg\n127.0.0.1\n  123 456\nready   \n")
	if !ok || pf.pid != 4242 || pf.port != 54321 {
		t.Fatalf("got %+v, %v", pf, ok)
	}
	for _, bad := range []string{"", "4242\n", "x\na\nb\n5432\n", "4242\na\nb\n\n"} {
		if _, ok := parsePIDFile(bad); ok {
			t.Errorf("%q read as a pid file", bad)
		}
	}
}

func TestAlive(t *testing.T) {
	t.Parallel()
	if !alive(os.Getpid()) {
		t.Fatal("this process is not alive")
	}
	if alive(1 << 30) {
		t.Fatal("an impossible pid is alive")
	}
}
