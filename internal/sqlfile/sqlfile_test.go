package sqlfile

import (
	"testing"
	"testing/fstest"
)

func TestReaderTrimsAndPanicsOnAMissingStatement(t *testing.T) {
	files := fstest.MapFS{"queries/now.sql": {Data: []byte("\n-- the clock\nselect now()\n\n")}}
	read := Reader(files, "demo")
	if got := read("now"); got != "-- the clock\nselect now()" {
		t.Fatalf("read %q", got)
	}
	defer func() {
		if p := recover(); p != "demo: missing query later" {
			t.Fatalf("panic %v; want the package and the statement named", p)
		}
	}()
	read("later")
}
