package webhook

import (
	"net/netip"
	"testing"

	"github.com/pipekit/pipe/errcode"
)

// Every range a delivery must not reach is refused, judged by the address
// (an IPv4-mapped or NAT64 one by the IPv4 it carries); public addresses
// pass.
func TestTheAddressMatrix(t *testing.T) {
	for addr, refused := range map[string]bool{
		"127.0.0.1": true, "127.255.255.254": true, "::1": true, // loopback
		"10.0.0.1": true, "172.16.0.1": true, "172.31.255.255": true, "192.168.1.1": true, // private
		"169.254.0.1": true, "fe80::1": true, // link-local
		"169.254.169.254": true, "fd00:ec2::254": true, "100.100.100.200": true, // cloud metadata
		"100.64.0.1": true, "100.127.255.255": true, // CGNAT
		"fc00::1": true, "fd12:3456::1": true, // unique-local
		"224.0.0.1": true, "239.255.255.250": true, "ff02::1": true, "ff05::2": true, // multicast
		"0.0.0.0": true, "::": true, "0.1.2.3": true, // unspecified, this network
		"255.255.255.255": true, "240.0.0.1": true, // broadcast, reserved
		"::ffff:127.0.0.1": true, "::ffff:10.0.0.1": true, "::ffff:169.254.169.254": true, // IPv4-mapped
		"64:ff9b::7f00:1": true, "64:ff9b::a9fe:a9fe": true, // NAT64 of loopback and metadata
		"8.8.8.8": false, "93.184.216.34": false, "1.1.1.1": false, "172.32.0.1": false, "100.128.0.1": false,
		"2606:4700:4700::1111": false, "::ffff:8.8.8.8": false, "64:ff9b::808:808": false,
	} {
		got := refusedAddr(netip.MustParseAddr(addr)) != ""
		if got != refused {
			t.Errorf("%s: refused %v, want %v", addr, got, refused)
		}
	}
}

// A host written as a number in any form inet_aton reads is judged as the
// address it names.
func TestNumericHostForms(t *testing.T) {
	for host, want := range map[string]string{
		"2130706433": "127.0.0.1", "0x7f000001": "127.0.0.1", "0177.0.0.1": "127.0.0.1",
		"127.1": "127.0.0.1", "127.0.1": "127.0.0.1", "0x7f.1": "127.0.0.1", "017700000001": "127.0.0.1",
		"3232235777": "192.168.1.1", "2852039166": "169.254.169.254", "134744072": "8.8.8.8",
	} {
		a, ok := numericHost(host)
		if !ok || a.String() != want {
			t.Errorf("%s reads as %v (%v), want %s", host, a, ok, want)
		}
	}
	for _, host := range []string{"example.com", "1.2.3.4.5", "256.1.1.1", "0x1g", "", "4294967296", "1.16777216"} {
		if a, ok := numericHost(host); ok {
			t.Errorf("%s reads as the address %v", host, a)
		}
	}
}

// The URL matrix: https only unless AllowHTTP, no credentials, and every
// literal or numeric host that names a refused address refused unless
// AllowPrivate; a host name passes to the dial-time check.
func TestTheURLMatrix(t *testing.T) {
	for raw, want := range map[string]bool{
		"https://hooks.example.com/x":         true,
		"https://8.8.8.8/x":                   true,
		"http://hooks.example.com/x":          false, // plain http
		"ftp://hooks.example.com/x":           false,
		"https://user:pw@hooks.example.com/x": false,
		"/relative":                           false,
		"https://127.0.0.1/":                  false,
		"https://[::1]/":                      false,
		"https://[::ffff:127.0.0.1]/":         false,
		"https://[::ffff:7f00:1]/":            false,
		"https://2130706433/":                 false,
		"https://0x7f000001/":                 false,
		"https://0177.0.0.1/":                 false,
		"https://127.1/":                      false,
		"https://169.254.169.254/latest/meta": false,
		"https://[fd00:ec2::254]/":            false,
		"https://100.100.100.200/":            false,
		"https://10.1.2.3/":                   false,
		"https://[fe80::1%25eth0]/":           false,
		"https://0.0.0.0/":                    false,
		"https://localhost/":                  true, // a name: refused at dial time
	} {
		_, err := checkURL(raw, false, false)
		if (err == nil) != want {
			t.Errorf("%s: accepted %v, want %v (%v)", raw, err == nil, want, err)
		}
		if err != nil && errcode.CodeOf(err) != errcode.WebhookEndpointInvalid {
			t.Errorf("%s: %v, want X_WEBHOOK_ENDPOINT_INVALID", raw, err)
		}
	}
	if _, err := checkURL("http://127.0.0.1:8080/", true, true); err != nil {
		t.Errorf("AllowHTTP and AllowPrivate refuse a loopback http URL: %v", err)
	}
}

// The dial-time check refuses what the resolver answered, whatever the
// name was.
func TestDialControlJudgesTheResolvedAddress(t *testing.T) {
	for addr, refused := range map[string]bool{"127.0.0.1:443": true, "[::ffff:10.0.0.1]:443": true, "[::1]:80": true, "8.8.8.8:443": false} {
		err := dialControl("tcp", addr, nil)
		if (err != nil) != refused {
			t.Errorf("%s: %v, want refused %v", addr, err, refused)
		}
	}
}
