package webhook

import (
	"net/netip"
	"strconv"
	"strings"
	"syscall"

	"github.com/pipekit/pipe/errcode"
)

// The address ranges a delivery never reaches without AllowPrivate, beyond
// what netip's own predicates name (loopback, private, link-local,
// multicast, unspecified).
var refusedPrefixes = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),         // "this network"
	netip.MustParsePrefix("100.64.0.0/10"),     // CGNAT (and Alibaba's metadata, 100.100.100.200)
	netip.MustParsePrefix("192.0.0.0/24"),      // IETF protocol assignments
	netip.MustParsePrefix("198.18.0.0/15"),     // benchmarking
	netip.MustParsePrefix("240.0.0.0/4"),       // reserved, and the broadcast address
	netip.MustParsePrefix("fd00:ec2::254/128"), // AWS metadata over IPv6 (also unique-local)
	netip.MustParsePrefix("64:ff9b:1::/48"),    // local-use NAT64
	netip.MustParsePrefix("2001:db8::/32"),     // documentation
	netip.MustParsePrefix("100::/64"),          // discard-only
}

// refusedAddr answers why a delivery may not reach a, or "" when it may.
// An IPv4-mapped or NAT64 address is judged by the IPv4 address it
// carries. A zone is dropped first: netip's IsUnspecified and
// Prefix.Contains are false for any zoned address, and [::%eth0] reaches
// this host.
func refusedAddr(a netip.Addr) string {
	a = a.WithZone("").Unmap()
	if a.Is6() && netip.MustParsePrefix("64:ff9b::/96").Contains(a) {
		b := a.As16()
		a = netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
	}
	switch {
	case a.IsLoopback():
		return "a loopback address"
	case a.IsUnspecified():
		return "an unspecified address"
	case a.IsLinkLocalUnicast():
		return "a link-local or metadata address"
	case a.IsPrivate():
		return "a private or unique-local address"
	case a.IsMulticast(), a.IsLinkLocalMulticast(), a.IsInterfaceLocalMulticast():
		return "a multicast address"
	}
	for _, p := range refusedPrefixes {
		if p.Contains(a) {
			return "a reserved, CGNAT or metadata address"
		}
	}
	return ""
}

// dialControl refuses, at dial time, a connection to an address a delivery
// may not reach: the address is the one the resolver answered, so a name
// that resolves differently on the second lookup (DNS rebinding) is judged
// by the address actually dialled.
func dialControl(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return errcode.New(errcode.WebhookEndpointInvalid, "the endpoint's address does not parse").
			WithFix("name the endpoint by a host name or an IP address")
	}
	if why := refusedAddr(ap.Addr()); why != "" {
		return refusedErr(why)
	}
	return nil
}

func refusedErr(why string) *errcode.Error {
	return errcode.New(errcode.WebhookEndpointInvalid, "the endpoint's host resolves to %s", why).
		WithFix("point the endpoint at a public address, or set AllowPrivate for endpoints inside your network")
}

// numericHost reads a host written as a number in one of the forms
// inet_aton takes — 2130706433, 0x7f000001, 0177.0.0.1, 127.1 — which
// some resolvers turn into an address and others send to DNS. ok is false
// for a host that is not such a number.
func numericHost(host string) (netip.Addr, bool) {
	if host == "" || strings.Trim(host, "0123456789abcdefxABCDEFX.") != "" {
		return netip.Addr{}, false
	}
	parts := strings.Split(host, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	var nums []uint64
	for _, p := range parts {
		n, err := strconv.ParseUint(p, 0, 32)
		if err != nil {
			return netip.Addr{}, false
		}
		nums = append(nums, n)
	}
	return packIPv4(nums)
}

// packIPv4 packs inet_aton's parts: the last part fills the bytes the
// earlier ones leave.
func packIPv4(nums []uint64) (netip.Addr, bool) {
	var v uint64
	for i, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, false
		}
		v |= n << (24 - 8*i)
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, false
	}
	v |= last
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}
