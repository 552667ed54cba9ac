package webhook

import (
	"net/netip"
	"testing"

	"github.com/pipekit/pipe/errcode"
)

// An IPv6 address with a zone is judged as the address without it: netip's
// IsUnspecified and Prefix.Contains are false for any zoned address, so
// https://[::%250]/ (found by FuzzCheckURL) was taken, and [::%eth0]
// reaches this host.
func TestAZonedAddressIsJudgedWithoutItsZone(t *testing.T) {
	for _, addr := range []string{"::%0", "::%eth0", "fd00:ec2::254%1", "64:ff9b::7f00:1%x", "100::1%z", "fe80::1%eth0", "::1%lo"} {
		if refusedAddr(netip.MustParseAddr(addr)) == "" {
			t.Errorf("%s is taken", addr)
		}
		if err := dialControl("tcp", netip.AddrPortFrom(netip.MustParseAddr(addr), 443).String(), nil); errcode.CodeOf(err) != errcode.WebhookEndpointInvalid {
			t.Errorf("dialling %s: %v", addr, err)
		}
	}
	for _, raw := range []string{"https://[::%250]/", "https://[::%25eth0]:8443/", "https://[fd00:ec2::254%251]/"} {
		if _, err := checkURL(raw, false, false); errcode.CodeOf(err) != errcode.WebhookEndpointInvalid {
			t.Errorf("%s: %v", raw, err)
		}
	}
	if refusedAddr(netip.MustParseAddr("2606:4700:4700::1111%eth0")) != "" {
		t.Error("a public address with a zone is refused")
	}
}
