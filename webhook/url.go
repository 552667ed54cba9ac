package webhook

import (
	"net/netip"
	"net/url"
	"strings"

	"github.com/pipekit/pipe/errcode"
)

// checkURL refuses an endpoint URL a delivery may not post to: not http(s),
// plain http without allowHTTP, credentials in it, no host, or a host
// written as an address (in any numeric form) that is refused without
// allowPrivate. A host name is judged again at dial time, by the address it
// resolves to.
func checkURL(raw string, allowHTTP, allowPrivate bool) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Hostname() == "" {
		return nil, invalidURL("the endpoint's URL does not parse as an absolute URL")
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && allowHTTP:
	case u.Scheme == "http":
		return nil, invalidURL("the endpoint's URL is plain http").WithFix("use an https:// URL, or set AllowHTTP for endpoints you trust on the path")
	default:
		return nil, invalidURL("the endpoint's URL is neither https nor http")
	}
	if u.User != nil {
		return nil, invalidURL("the endpoint's URL carries credentials").WithFix("remove the user and password from the URL: the signature authenticates the delivery")
	}
	if allowPrivate {
		return u, nil
	}
	host := strings.ToLower(u.Hostname())
	a, err := netip.ParseAddr(host)
	if err != nil {
		var ok bool
		if a, ok = numericHost(host); !ok {
			return u, nil
		}
	}
	if why := refusedAddr(a); why != "" {
		return nil, refusedErr(why)
	}
	return u, nil
}

func invalidURL(msg string) *errcode.Error {
	return errcode.New(errcode.WebhookEndpointInvalid, "%s", msg).
		WithFix("give the endpoint an absolute https:// URL")
}
