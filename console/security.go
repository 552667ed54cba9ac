package console

import (
	"crypto/subtle"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/pipekit/pipe/errcode"
)

// cookieName is the cookie that carries the token after ?token= set it.
const cookieName = "pipe_console_token"

// contentPolicy lets a page load only the console's own stylesheet and
// script, post forms only to itself, and never be framed.
const contentPolicy = "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; " +
	"connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

func secureHeaders(h http.Header) {
	h.Set("Content-Security-Policy", contentPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "same-origin") // no-referrer would make a form post's Origin "null"
	h.Set("Cache-Control", "no-store")
}

// authorized reports whether r may be served, answering 401 when not. A
// GET carrying ?token= sets the cookie and redirects to the same page
// without it, so the token leaves the address bar and the history.
func (c *Console) authorized(w http.ResponseWriter, r *http.Request) bool {
	if c.opts.Token == "" {
		return true
	}
	if q := r.URL.Query().Get("token"); q != "" && r.Method == http.MethodGet && c.tokenIs(q) {
		http.SetCookie(w, &http.Cookie{Name: cookieName, Value: q, Path: c.cookiePath(), HttpOnly: true,
			Secure: overTLS(r), SameSite: http.SameSiteStrictMode})
		clean := *r.URL
		v := clean.Query()
		v.Del("token")
		clean.RawQuery = v.Encode()
		http.Redirect(w, r, c.base+clean.RequestURI(), http.StatusSeeOther)
		return false
	}
	if bearer, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && c.tokenIs(bearer) {
		return true
	}
	if ck, err := r.Cookie(cookieName); err == nil && c.tokenIs(ck.Value) {
		return true
	}
	w.Header().Set("WWW-Authenticate", `Bearer realm="pipe console"`)
	c.fail(w, r, http.StatusUnauthorized, errcode.New(errcode.ConsoleUnauthorized, "console: this console asks for its token").
		WithFix("open the console's address with ?token=TOKEN once, or send Authorization: Bearer TOKEN"))
	return false
}

func (c *Console) tokenIs(s string) bool {
	return subtle.ConstantTimeCompare([]byte(s), []byte(c.opts.Token)) == 1
}

// csrfOK reports whether a POST carries its session's current CSRF token
// (spending it: the next page carries a fresh one) and, where the browser
// says, comes from the console's own pages: the same site, and an Origin
// that is the request's Host or a name the console answers to (a proxy
// that rewrites the Host).
func (c *Console) csrfOK(r *http.Request) bool {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
		return false
	}
	if origin := r.Header.Get("Origin"); origin != "" {
		u, err := url.Parse(origin)
		local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
		if err != nil || u.Host != r.Host && !c.hosts.AllowsHost(u.Host, u.Scheme == "https", local) {
			return false
		}
	}
	return c.spend(r, r.PostFormValue("csrf"))
}

// refuseHost answers a request under a Host the console does not answer
// to: 421, a coded line that does not quote the Host, and no page, token
// or cookie.
func refuseHost(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusMisdirectedRequest)
	_, _ = w.Write([]byte(string(errcode.HostRefused) + ": the console does not answer to this host name\n" +
		"Fix: open the console at the address it printed, or allow the name with --allow-host NAME (console.Options.AllowedHosts)\n"))
}
