package console_test

import (
	"html"
	"net/http"
	"net/http/cookiejar"
	"regexp"
	"testing"
)

// newBrowser answers a client that keeps cookies, as a browser does, and
// shows a redirect instead of following it.
func newBrowser() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

var csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// csrfOf answers the CSRF token a page's forms carry.
func csrfOf(t *testing.T, page string) string {
	t.Helper()
	m := csrfField.FindStringSubmatch(page)
	if m == nil {
		t.Fatal("the page carries no CSRF token")
	}
	return m[1]
}

// attrs answers the values of a page's href, src and action attributes,
// unescaped as a browser reads them.
func attrs(page string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`(?:href|src|action)="([^"]*)"`).FindAllStringSubmatch(page, -1) {
		out = append(out, html.UnescapeString(m[1]))
	}
	return out
}
