package console_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/pipekit/pipe/console"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// send answers the status, headers and body of a request to srv's path
// under host, with header's fields.
func send(t *testing.T, client *http.Client, method, u, host string, form url.Values, header map[string]string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.Host = host
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(body)
}

// A page whose DNS name was rebound to the console's address sends its own
// name as the Host: the console refuses it before any page is read or any
// action runs, even with the cookie and CSRF token a real page gave.
func TestARebindingPageIsRefusedBeforeAnyPageOrAction(t *testing.T) {
	pool := fixtures.DB(t)
	res, err := hostileJob.Enqueue(t.Context(), pool, hostile{Note: "now"})
	if err != nil {
		t.Fatal(err)
	}
	later, err := hostileJob.Enqueue(t.Context(), pool, hostile{Note: "later"}, pipeline.EnqueueOptions{Delay: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	id, admin := res.ID, pipeline.NewAdmin(pool)
	srv := consoleOn(t, admin, console.Options{AllowActions: true})
	port := strings.TrimPrefix(srv.URL, "http://127.0.0.1:")
	evil := "evil.example:" + port
	browser := newBrowser()
	for _, path := range []string{"/", "/jobs", "/jobs/" + id, "/static/console.css"} {
		code, h, body := send(t, browser, http.MethodGet, srv.URL+path, evil, nil, nil)
		if code != http.StatusMisdirectedRequest || !strings.HasPrefix(body, "X_HOST_REFUSED") ||
			strings.Contains(body, "evil") || strings.Contains(body, "csrf") || h.Get("Set-Cookie") != "" {
			t.Fatalf("GET %s under a rebound name: %d, %d bytes", path, code, len(body))
		}
	}
	code, _, _ := send(t, browser, http.MethodGet, srv.URL+"/jobs/"+id, evil, nil, map[string]string{"X-Console-Fragment": "1"})
	if code != http.StatusMisdirectedRequest {
		t.Fatalf("a fragment under a rebound name: %d", code)
	}
	_, _, page := get(t, browser, srv.URL+"/jobs/"+id) // a real page: its cookie and token
	form := url.Values{"csrf": {csrfOf(t, page)}}
	code, _, _ = send(t, browser, http.MethodPost, srv.URL+"/queues/default/pause", evil, form, map[string]string{"Origin": "http://" + evil})
	if code != http.StatusMisdirectedRequest {
		t.Fatalf("a post under a rebound name: %d", code)
	}
	if paused, _ := admin.PausedQueues(t.Context()); len(paused) != 0 {
		t.Fatalf("a refused post paused %v", paused)
	}
	// The finding as it was tried: a promote with the rebound Host and
	// Origin, the page's cookie and token, answered 303 and the run ran.
	_, _, page = get(t, browser, srv.URL+"/jobs/"+later.ID)
	form = url.Values{"csrf": {csrfOf(t, page)}}
	code, _, _ = send(t, browser, http.MethodPost, srv.URL+"/jobs/"+later.ID+"/promote", evil, form, map[string]string{"Origin": "http://" + evil})
	if d, _ := admin.Show(t.Context(), later.ID); code != http.StatusMisdirectedRequest || d.State != pipeline.StateDelayed {
		t.Fatalf("a promote under a rebound name: %d, the run %s", code, d.State)
	}
	code, _, _ = send(t, browser, http.MethodPost, srv.URL+"/jobs/"+later.ID+"/promote", strings.TrimPrefix(srv.URL, "http://"), form, map[string]string{"Origin": srv.URL})
	if d, _ := admin.Show(t.Context(), later.ID); code != http.StatusSeeOther || d.State != pipeline.StateReady {
		t.Fatalf("the same promote from the console's own page: %d, the run %s", code, d.State)
	}
	for host, want := range map[string]int{
		"127.0.0.1:" + port: http.StatusOK, "localhost:" + port: http.StatusOK, "[::1]:" + port: http.StatusOK,
		"localhost:1": http.StatusMisdirectedRequest, "127.0.0.1.nip.io:" + port: http.StatusMisdirectedRequest,
		"localhost.evil.example:" + port: http.StatusMisdirectedRequest,
	} {
		if code, _, _ := send(t, srv.Client(), http.MethodGet, srv.URL+"/workers", host, nil, nil); code != want {
			t.Errorf("Host %s: %d, want %d", host, code, want)
		}
	}
}

// A name behind a proxy that passes the browser's Host through is served
// once allowed; its Origin passes the CSRF check.
func TestAnAllowedHostIsServed(t *testing.T) {
	srv, admin, _ := serve(t, console.Options{AllowActions: true, AllowedHosts: []string{"ops.example.com"}})
	browser := newBrowser()
	code, h, page := send(t, browser, http.MethodGet, srv.URL+"/", "ops.example.com", nil, nil)
	if code != http.StatusOK {
		t.Fatalf("an allowed name: %d", code)
	}
	form := url.Values{"csrf": {csrfOf(t, page)}}
	// the browser at ops.example.com sends back the session cookie it was given
	cookie, _, _ := strings.Cut(h.Get("Set-Cookie"), ";")
	req := map[string]string{"Origin": "https://ops.example.com", "Cookie": cookie}
	if code, _, _ := send(t, newBrowser(), http.MethodPost, srv.URL+"/queues/default/pause", "ops.example.com", form, req); code != http.StatusSeeOther {
		t.Fatalf("a post from the allowed name: %d", code)
	}
	if paused, _ := admin.PausedQueues(t.Context()); len(paused) != 1 {
		t.Fatalf("paused %v", paused)
	}
	if code, _, _ := send(t, browser, http.MethodGet, srv.URL+"/", "other.example.com", nil, nil); code != http.StatusMisdirectedRequest {
		t.Fatalf("a name not allowed: %d", code)
	}
	if _, err := console.New(pipeline.NewAdmin(nil), console.Options{AllowedHosts: []string{"https://ops.example.com/"}}); err == nil {
		t.Fatal("a URL was taken for a host name")
	}
}
