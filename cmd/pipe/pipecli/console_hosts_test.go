package pipecli

import (
	"slices"
	"testing"
)

// The host of --addr is a name the console answers to; an address on
// every interface names none.
func TestTheConsoleAnswersToTheHostOfItsAddress(t *testing.T) {
	for addr, want := range map[string][]string{
		"ops.lan:8080": {"ops.lan"}, "10.0.0.5:8080": {"10.0.0.5"}, "[fe80::1]:8080": {"[fe80::1]"},
		":8080": nil, "0.0.0.0:8080": nil, "[::]:8080": nil, "no-port": nil,
	} {
		if got := addrHost(addr); !slices.Equal(got, want) {
			t.Errorf("%s: %q, want %q", addr, got, want)
		}
	}
}
