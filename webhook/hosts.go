package webhook

import (
	"net/http"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/internal/hostrule"
)

// OnlyHosts answers next behind a Host rule: a request is served only when
// its Host is one of names ("name" on any port, or "name:port"), a
// loopback name on the port it arrived at, or the address it arrived at;
// any other is refused with 421 and X_HOST_REFUSED as a JSON refusal that
// does not quote the Host. Wrap a server's whole mux (receivers, metrics,
// health) with it when the names its senders and scrapers use are known;
// `pipe serve --allow-host NAME` does. A bad name is X_CONFIG_INVALID.
//
// A receiver is not guarded by default: its senders call it from servers
// at whatever public name a proxy or load balancer answers to, and each
// request is authenticated by its signature, not by a browser's
// same-origin rule, so a page rebound to its address gains nothing a
// sender's forgery would not.
func OnlyHosts(next http.Handler, names ...string) (http.Handler, error) {
	rule, err := hostrule.New(names...)
	if err != nil {
		return nil, err
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !rule.Allows(r) {
			refuse(w, http.StatusMisdirectedRequest, errcode.New(errcode.HostRefused, "this server does not answer to that host name").
				WithFix("send the request to a name the server was given (--allow-host), or to its address"))
			return
		}
		next.ServeHTTP(w, r)
	}), nil
}
