package webhook

import (
	"net"
	"net/netip"
	"strconv"
	"strings"
	"testing"

	"github.com/pipekit/pipe/errcode"
)

// FuzzCheckURL: an endpoint URL checkURL takes is http(s) as allowed, has a
// host and no credentials, and — without allowPrivate — a host that, read
// as an address by net.ParseIP, netip or inet_aton's numeric forms, is an
// address a delivery may reach; a refusal is X_WEBHOOK_ENDPOINT_INVALID and
// quotes nothing of the URL.
func FuzzCheckURL(f *testing.F) {
	for _, u := range []string{
		"https://hooks.example.com/in", "http://10.0.0.1/", "https://[::ffff:127.0.0.1]/", "https://2130706433/",
		"https://0x7f.1/", "https://0177.0.0.1/", "https://u:p@example.com/", "ftp://example.com/", "https://[64:ff9b::a9fe:a9fe]/",
		"https://127.0.0.1./", "https://%31%32%37.0.0.1/", "https:///x", "https://[fe80::1%25eth0]/",
	} {
		f.Add(u, false, false)
	}
	f.Fuzz(func(t *testing.T, raw string, allowHTTP, allowPrivate bool) {
		u, err := checkURL(raw, allowHTTP, allowPrivate)
		if err != nil {
			if errcode.CodeOf(err) != errcode.WebhookEndpointInvalid {
				t.Fatalf("%q: refusal coded %q", raw, errcode.CodeOf(err))
			}
			if len(raw) >= 8 && strings.Contains(err.Error(), raw) {
				t.Fatalf("the refusal %q quotes the URL", err)
			}
			return
		}
		if u.Scheme != "https" && (u.Scheme != "http" || !allowHTTP) || u.User != nil || u.Hostname() == "" {
			t.Fatalf("%q taken: scheme %q, user %v, host %q", raw, u.Scheme, u.User, u.Hostname())
		}
		if allowPrivate {
			return
		}
		host := strings.ToLower(u.Hostname())
		for _, a := range readsAs(host) {
			if why := refusedAddr(a); why != "" {
				t.Fatalf("%q taken: its host %q reads as %v, %s", raw, host, a, why)
			}
		}
	})
}

// readsAs answers the addresses a resolver or a dialler could read host as:
// net.ParseIP's, netip's (a zone dropped) and inet_aton's.
func readsAs(host string) []netip.Addr {
	var out []netip.Addr
	if ip := net.ParseIP(host); ip != nil {
		a, _ := netip.AddrFromSlice(ip)
		out = append(out, a)
	}
	if a, err := netip.ParseAddr(host); err == nil {
		out = append(out, a.WithZone(""))
	}
	if a, ok := inetAton(host); ok {
		out = append(out, a)
	}
	return out
}

// inetAton reads host as C's inet_aton does, written apart from
// numericHost: one to four parts, each decimal, 0x hexadecimal or 0 octal,
// the last filling the bytes the others leave.
func inetAton(host string) (netip.Addr, bool) {
	parts := strings.Split(host, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	var v uint64
	for i, p := range parts {
		base := 10
		switch {
		case strings.HasPrefix(p, "0x"):
			base, p = 16, p[2:]
		case len(p) > 1 && p[0] == '0':
			base, p = 8, p[1:]
		}
		if p == "" || strings.ContainsAny(p, "+-_") {
			return netip.Addr{}, false
		}
		n, err := strconv.ParseUint(p, base, 32)
		last := i == len(parts)-1
		if err != nil || !last && n > 255 || last && n >= 1<<(8*(4-i)) {
			return netip.Addr{}, false
		}
		if last {
			v |= n
		} else {
			v |= n << (24 - 8*i)
		}
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}
