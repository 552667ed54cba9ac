package hostrule_test

import (
	"net"
	"strings"
	"testing"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/internal/hostrule"
)

func TestTheRuleAnswersToLoopbackItsOwnAddressAndItsNames(t *testing.T) {
	rule, err := hostrule.New("ops.example.com", "tunnel.example:9000", "[2001:db8::1]")
	if err != nil {
		t.Fatal(err)
	}
	local := &net.TCPAddr{IP: net.ParseIP("10.0.0.5"), Port: 8080}
	for host, want := range map[string]bool{
		"localhost:8080": true, "LOCALHOST:8080": true, "127.0.0.1:8080": true, "[::1]:8080": true,
		"10.0.0.5:8080": true, "ops.example.com": true, "ops.example.com:443": true, "Ops.Example.COM:8080": true,
		"tunnel.example:9000": true, "[2001:db8::1]:1": true,
		"localhost:9000": false, "127.0.0.1:9000": false, "10.0.0.6:8080": false, "evil.example:8080": false,
		"evil.example": false, "tunnel.example:9001": false, "tunnel.example": false, "": false,
		"localhost.evil.example:8080": false, "127.0.0.1.nip.io:8080": false, "localhost:80x": false, "::1": false,
	} {
		if got := rule.AllowsHost(host, false, local); got != want {
			t.Errorf("%q: allowed %v, want %v", host, got, want)
		}
	}
	if !rule.AllowsHost("localhost", false, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 80}) ||
		rule.AllowsHost("localhost", true, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 80}) {
		t.Error("a Host without a port is port 80, or 443 over TLS")
	}
	if !(hostrule.Rule{}).AllowsHost("localhost:1234", false, nil) || (hostrule.Rule{}).AllowsHost("evil.example:1234", false, nil) {
		t.Error("with no connection known, a loopback name is allowed on any port and no other name")
	}
}

func TestABadNameIsRefusedWithoutQuotingIt(t *testing.T) {
	for _, n := range []string{"", "https://ops.example.com", "ops.example.com/console", "a:b:c", "ops.example.com:port", "[::1"} {
		_, err := hostrule.New(n)
		if errcode.CodeOf(err) != errcode.ConfigInvalid || n != "" && strings.Contains(err.Error(), n) {
			t.Errorf("%q: %v", n, err)
		}
	}
}
