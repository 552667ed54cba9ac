// Package hostrule is the Host header rule of pipe's HTTP servers (the web
// console, and `pipe serve` when given names): a request is served only
// under a name the server answers to. A page whose DNS name an attacker
// rebound to the server's address sends its own name as the Host, and is
// refused before any page or action runs.
//
// A server answers to the loopback names (localhost, 127.0.0.1, [::1]) on
// the port the connection arrived at, to the address the connection
// arrived at (an IP literal cannot be rebound), and to the names it is
// given: "name" (any port) or "name:port".
package hostrule

import (
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/pipekit/pipe/errcode"
)

// Rule is the names a server answers to beyond loopback and its own
// address. The zero Rule answers to those alone.
type Rule struct {
	names []name
}

// name is one allowed Host: its host, lower-cased, and its port ("" for
// any).
type name struct {
	host, port string
}

// New answers the rule that also allows names, each "host" or "host:port"
// (an IPv6 address in brackets). A name that is not one is
// X_CONFIG_INVALID, naming its place in the list, not its text.
func New(names ...string) (Rule, error) {
	var r Rule
	for i, n := range names {
		host, port, ok := split(strings.TrimSpace(n))
		if !ok || host == "" || strings.ContainsAny(host, "/?#@ \\%") {
			return Rule{}, errcode.New(errcode.ConfigInvalid, "allowed host %d is not a host name or host:port", i+1).
				WithFix("pass a name as the browser's address bar shows it, such as ops.example.com or ops.example.com:8443, with no scheme or path")
		}
		r.names = append(r.names, name{host: host, port: port})
	}
	return r, nil
}

// Allows reports whether req's Host is one the server answers to.
func (r Rule) Allows(req *http.Request) bool {
	local, _ := req.Context().Value(http.LocalAddrContextKey).(net.Addr)
	return r.AllowsHost(req.Host, req.TLS != nil, local)
}

// AllowsHost reports whether hostport (a Host header, or an Origin's host)
// is one the server answers to, over TLS or not, on a connection that
// arrived at local (nil when unknown: then a loopback name's port is not
// checked).
func (r Rule) AllowsHost(hostport string, tls bool, local net.Addr) bool {
	host, port, ok := split(hostport)
	if !ok || host == "" {
		return false
	}
	if port == "" {
		port = map[bool]string{true: "443", false: "80"}[tls]
	}
	for _, n := range r.names {
		if n.host == host && (n.port == "" || n.port == port) {
			return true
		}
	}
	localIP, localPort := addrOf(local)
	if local != nil && port != localPort {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && (ip.IsLoopback() || localIP != nil && ip.Equal(localIP))
}

// split answers a Host's host, lower-cased and without an IPv6 address's
// brackets, and its port ("" when it names none).
func split(hostport string) (host, port string, ok bool) {
	if hostport == "" {
		return "", "", false
	}
	h, p, err := net.SplitHostPort(hostport)
	if err != nil {
		// no port: a name, or a bracketed IPv6 address
		h = hostport
		if strings.HasPrefix(h, "[") {
			if !strings.HasSuffix(h, "]") {
				return "", "", false
			}
			h = h[1 : len(h)-1]
		} else if strings.Contains(h, ":") {
			return "", "", false
		}
	} else if p == "" || strings.Trim(p, "0123456789") != "" {
		return "", "", false
	}
	return strings.ToLower(h), p, true
}

// addrOf answers a TCP address's IP and port.
func addrOf(a net.Addr) (net.IP, string) {
	if t, ok := a.(*net.TCPAddr); ok {
		return t.IP, strconv.Itoa(t.Port)
	}
	if a == nil {
		return nil, ""
	}
	h, p, err := net.SplitHostPort(a.String())
	if err != nil {
		return nil, ""
	}
	return net.ParseIP(h), p
}
