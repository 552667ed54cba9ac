package console_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pipekit/pipe/console"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// clock is a settable clock for the console's Now.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *clock) add(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }

// The CSRF token is bound to a browser's session cookie (HttpOnly,
// SameSite=Strict), serves one post, and ends with the session: another
// browser's token, a spent token or a token past the session's life is
// refused.
func TestACSRFTokenIsBoundToASessionAndServesOnePost(t *testing.T) {
	clk := &clock{now: time.Now()}
	srv, admin, _ := serve(t, console.Options{AllowActions: true, Now: clk.Now})
	post := func(b *http.Client, token, action string) int {
		resp, err := b.PostForm(srv.URL+"/queues/default/"+action, url.Values{"csrf": {token}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	alice, bob := newBrowser(), newBrowser()
	_, h, page := get(t, alice, srv.URL+"/")
	cookie := h.Get("Set-Cookie")
	for _, want := range []string{"pipe_console_session=", "HttpOnly", "SameSite=Strict", "Path=/"} {
		if !strings.Contains(cookie, want) {
			t.Fatalf("the session cookie %q lacks %s", cookie, want)
		}
	}
	if strings.Contains(cookie, "Secure") {
		t.Fatal("a cookie over plain HTTP is Secure: the browser would drop it")
	}
	aliceToken := csrfOf(t, page)
	base, _ := url.Parse(srv.URL)
	session := strings.Split(alice.Jar.Cookies(base)[0].String(), "=")[1]
	_, _, bobPage := get(t, bob, srv.URL+"/")
	if csrfOf(t, bobPage) == aliceToken {
		t.Fatal("two browsers were given one token")
	}
	if code := post(bob, aliceToken, "pause"); code != http.StatusForbidden {
		t.Fatalf("another session's token: %d", code)
	}
	if code := post(newBrowser(), aliceToken, "pause"); code != http.StatusForbidden {
		t.Fatalf("a token without its session: %d", code)
	}
	if paused, _ := admin.PausedQueues(t.Context()); len(paused) != 0 {
		t.Fatalf("a refused post paused %v", paused)
	}
	if code := post(alice, aliceToken, "pause"); code != http.StatusSeeOther {
		t.Fatalf("the session's token: %d", code)
	}
	if code := post(alice, aliceToken, "resume"); code != http.StatusForbidden {
		t.Fatalf("a spent token: %d", code)
	}
	_, _, page = get(t, alice, srv.URL+"/?done=pause")
	fresh := csrfOf(t, page)
	if fresh == aliceToken {
		t.Fatal("the page after an action carries the spent token")
	}
	clk.add(8*time.Hour + time.Second)
	if code := post(alice, fresh, "resume"); code != http.StatusForbidden {
		t.Fatalf("a token past its session's life: %d", code)
	}
	if paused, _ := admin.PausedQueues(t.Context()); len(paused) != 1 {
		t.Fatalf("paused %v", paused)
	}
	_, _, page = get(t, alice, srv.URL+"/")
	if next := strings.Split(alice.Jar.Cookies(base)[0].String(), "=")[1]; next == session {
		t.Fatal("no fresh session after the last one ended")
	}
	if code := post(alice, csrfOf(t, page), "resume"); code != http.StatusSeeOther {
		t.Fatalf("the fresh session's token: %d", code)
	}
}

// Over TLS the session cookie is Secure.
func TestTheSessionCookieIsSecureOverTLS(t *testing.T) {
	c, err := console.New(pipeline.NewAdmin(fixtures.DB(t)), console.Options{AllowActions: true})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewTLSServer(c)
	t.Cleanup(srv.Close)
	_, h, _ := get(t, srv.Client(), srv.URL+"/workers")
	if c := h.Get("Set-Cookie"); !strings.Contains(c, "pipe_console_session=") || !strings.Contains(c, "; Secure") {
		t.Fatalf("the cookie over TLS: %q", c)
	}
}

// A request the token refuses starts no session: only a page served to an
// authorized reader holds one.
func TestARefusedRequestStartsNoSession(t *testing.T) {
	srv, _, _ := serve(t, console.Options{AllowActions: true, Token: "s3cret"})
	code, h, _ := get(t, newBrowser(), srv.URL+"/")
	if code != http.StatusUnauthorized || h.Get("Set-Cookie") != "" {
		t.Fatalf("no token: %d, cookie %q", code, h.Get("Set-Cookie"))
	}
}
