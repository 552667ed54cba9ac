package console_test

import (
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"

	"github.com/pipekit/pipe/console"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// behindProxy answers the address of a reverse proxy that serves the
// console at backend under /ops/: stripping the prefix and setting the
// Host to the backend's, or passing both through as they came.
func behindProxy(t *testing.T, backend string, strip bool) string {
	t.Helper()
	target, _ := url.Parse(backend)
	var h http.Handler
	if strip {
		h = http.StripPrefix("/ops", &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			pr.SetXForwarded()
		}})
	} else {
		h = httputil.NewSingleHostReverseProxy(target) // keeps the browser's Host
	}
	mux := http.NewServeMux()
	mux.Handle("/ops/", h)
	return httpServer(t, mux).URL
}

// Under a proxy's prefix every link, asset, form and redirect carries the
// prefix: a crawl from the root reads every page and asset through the
// proxy, and an action lands back under it.
func TestTheConsoleServesUnderABasePathBehindAProxy(t *testing.T) {
	for _, strip := range []bool{true, false} {
		o := console.Options{AllowActions: true, BasePath: "/ops/"}
		if !strip {
			o.AllowedHosts = []string{"127.0.0.1"} // the proxy's name, which it passes through, on its own port
		}
		srv, admin, id := serve(t, o)
		proxy := behindProxy(t, srv.URL, strip)
		browser := newBrowser()
		seen := map[string]bool{}
		queue := []string{"/ops/", "/ops/jobs/" + id}
		var home string
		for len(queue) > 0 {
			path := queue[0]
			queue = queue[1:]
			if seen[path] {
				continue
			}
			seen[path] = true
			code, h, body := get(t, browser, proxy+path)
			if code != http.StatusOK {
				t.Fatalf("strip %v: GET %s: %d", strip, path, code)
			}
			if path == "/ops/" {
				home = body
				if c := h.Get("Set-Cookie"); !strings.Contains(c, "Path=/ops") {
					t.Fatalf("strip %v: the session cookie %q is not under the prefix", strip, c)
				}
			}
			if !strings.HasPrefix(h.Get("Content-Type"), "text/html") {
				continue
			}
			for _, a := range attrs(body) {
				if !strings.HasPrefix(a, "/ops/") {
					t.Fatalf("strip %v: %s links %q, outside the prefix", strip, path, a)
				}
				if u, _ := url.Parse(a); !strings.Contains(body, `method="post" action="`+a) {
					queue = append(queue, u.RequestURI())
				}
			}
		}
		for _, want := range []string{"/ops/static/console.css", "/ops/static/live.js", "/ops/jobs", "/ops/tasks", "/ops/workers", "/ops/jobs/" + id} {
			if !seen[want] {
				t.Fatalf("strip %v: the crawl never reached %s", strip, want)
			}
		}
		resp, err := browser.PostForm(proxy+"/ops/queues/default/pause", url.Values{"csrf": {csrfOf(t, home)}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != "/ops/?done=pause" {
			t.Fatalf("strip %v: the action answered %d to %q", strip, resp.StatusCode, loc)
		}
		if code, _, body := get(t, browser, proxy+resp.Header.Get("Location")); code != http.StatusOK || !strings.Contains(body, "Paused.") {
			t.Fatalf("strip %v: the redirect lands on %d", strip, code)
		}
		if paused, _ := admin.PausedQueues(t.Context()); len(paused) != 1 {
			t.Fatalf("strip %v: paused %v", strip, paused)
		}
	}
}

// A base path that is not a plain path is refused.
func TestABadBasePathIsRefused(t *testing.T) {
	for _, p := range []string{"ops", "/ops?x", "/o ps", "/../ops", "/ops//x", "//evil.example"} {
		if _, err := console.New(pipeline.NewAdmin(nil), console.Options{BasePath: p}); errcode.CodeOf(err) != errcode.ConfigInvalid {
			t.Errorf("%q: %v", p, err)
		}
	}
	if _, err := console.New(pipeline.NewAdmin(nil), console.Options{BasePath: "/pipe/console-1"}); err != nil {
		t.Fatal(err)
	}
}

// A proxy that passes the browser's Host through needs that name allowed.
func TestAProxysNameIsRefusedUnlessAllowed(t *testing.T) {
	srv, _, _ := serve(t, console.Options{BasePath: "/ops"})
	if code, _, _ := get(t, newBrowser(), behindProxy(t, srv.URL, false)+"/ops/"); code != http.StatusMisdirectedRequest {
		t.Fatalf("a proxy's name not allowed: %d", code)
	}
}

// The visit that hands the console its token lands back under the prefix,
// its cookie scoped to it.
func TestTheTokenVisitKeepsTheBasePath(t *testing.T) {
	srv, _, _ := serve(t, console.Options{Token: "s3cret", BasePath: "/ops"})
	for _, path := range []string{"/ops/jobs?state=dead&token=s3cret", "/jobs?state=dead&token=s3cret"} { // prefix passed, or stripped
		code, h, _ := get(t, newBrowser(), srv.URL+path)
		if code != http.StatusSeeOther || h.Get("Location") != "/ops/jobs?state=dead" || !strings.Contains(h.Get("Set-Cookie"), "Path=/ops;") {
			t.Fatalf("%s: %d to %q, cookie %q", path, code, h.Get("Location"), h.Get("Set-Cookie"))
		}
	}
}
