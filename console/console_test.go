package console_test

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/pipekit/pipe/console"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// hostile is an input that would run script if a page did not escape it.
type hostile struct {
	Note string `json:"note"`
}

const evil = `<script>alert("x")</script>'"&`

var hostileJob = pipeline.MustJob(`orders.<script>"quoted"`, func(h hostile) string { return h.Note },
	func(ctx context.Context, run *pipeline.Run[hostile]) (int, error) {
		return 0, errcode.New(errcode.Invariant, "refused").WithFix("fix it")
	}, pipeline.JobOptions[hostile, int]{Retry: &pipeline.Retry{Attempts: 1}})

// serve answers a test server over a console on a fresh database.
func serve(t *testing.T, o console.Options) (*httptest.Server, *pipeline.Admin, string) {
	t.Helper()
	pool := fixtures.DB(t)
	res, err := hostileJob.Enqueue(t.Context(), pool, hostile{Note: evil})
	if err != nil {
		t.Fatal(err)
	}
	admin := pipeline.NewAdmin(pool)
	return consoleOn(t, admin, o), admin, res.ID
}

// consoleOn answers a test server over a console over admin.
func consoleOn(t *testing.T, admin *pipeline.Admin, o console.Options) *httptest.Server {
	t.Helper()
	c, err := console.New(admin, o)
	if err != nil {
		t.Fatal(err)
	}
	return httpServer(t, c)
}

func get(t *testing.T, client *http.Client, u string) (int, http.Header, string) {
	t.Helper()
	resp, err := client.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(body)
}

func TestEveryPageEscapesValuesAndCarriesTheSecurityHeaders(t *testing.T) {
	srv, _, id := serve(t, console.Options{Manifests: []pipeline.Manifest{hostileJob.Describe()}})
	for _, path := range []string{"/", "/jobs", "/jobs/" + id, "/tasks", "/workers", "/jobs?name=" + url.QueryEscape(evil)} {
		code, h, body := get(t, srv.Client(), srv.URL+path)
		if code != http.StatusOK {
			t.Fatalf("%s: %d %s", path, code, body)
		}
		if !strings.Contains(h.Get("Content-Security-Policy"), "script-src 'self'") || h.Get("X-Frame-Options") != "DENY" {
			t.Fatalf("%s: headers %v", path, h)
		}
		if strings.Contains(body, "<script>alert") || strings.Contains(body, `<script>"quoted"`) {
			t.Fatalf("%s renders a value unescaped", path)
		}
	}
	_, _, body := get(t, srv.Client(), srv.URL+"/jobs/"+id)
	if !strings.Contains(body, "&lt;script&gt;alert") {
		t.Fatal("the input is not shown, escaped")
	}
}

func TestAReadOnlyConsoleRefusesActions(t *testing.T) {
	srv, admin, id := serve(t, console.Options{})
	_, _, body := get(t, srv.Client(), srv.URL+"/jobs/"+id)
	if strings.Contains(body, `action="/jobs/`+id+`/cancel"`) {
		t.Fatal("a read-only console draws an action")
	}
	csrf := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(body)
	token := ""
	if csrf != nil {
		token = csrf[1]
	}
	resp, err := srv.Client().PostForm(srv.URL+"/jobs/"+id+"/cancel", url.Values{"csrf": {token}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("cancel on a read-only console: %d", resp.StatusCode)
	}
	if d, _ := admin.Show(t.Context(), id); d.State != pipeline.StateReady {
		t.Fatalf("the run is %s", d.State)
	}
}

func TestAnActionNeedsThePagesCSRFToken(t *testing.T) {
	srv, admin, id := serve(t, console.Options{AllowActions: true})
	browser := newBrowser()
	post := func(form url.Values, header map[string]string) int {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/queues/default/pause", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for k, v := range header {
			req.Header.Set(k, v)
		}
		resp, err := browser.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := post(url.Values{}, nil); code != http.StatusForbidden {
		t.Fatalf("no token: %d", code)
	}
	_, _, page := get(t, browser, srv.URL+"/jobs/"+id)
	token := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(page)[1]
	if code := post(url.Values{"csrf": {token}}, map[string]string{"Origin": "https://evil.example"}); code != http.StatusForbidden {
		t.Fatalf("another origin: %d", code)
	}
	if code := post(url.Values{"csrf": {token}}, map[string]string{"Sec-Fetch-Site": "cross-site"}); code != http.StatusForbidden {
		t.Fatalf("a cross-site fetch: %d", code)
	}
	if paused, _ := admin.PausedQueues(t.Context()); len(paused) != 0 {
		t.Fatalf("a refused post paused %v", paused)
	}
	if code := post(url.Values{"csrf": {token}}, nil); code != http.StatusSeeOther {
		t.Fatalf("with the token: %d", code)
	}
	if paused, _ := admin.PausedQueues(t.Context()); len(paused) != 1 || paused[0] != "default" {
		t.Fatalf("paused %v", paused)
	}
}

func TestATokenIsAskedOfEveryRequest(t *testing.T) {
	srv, _, _ := serve(t, console.Options{Token: "s3cret"})
	if code, _, body := get(t, srv.Client(), srv.URL+"/"); code != http.StatusUnauthorized || !strings.Contains(body, "X_CONSOLE_UNAUTHORIZED") {
		t.Fatalf("no token: %d", code)
	}
	if code, _, _ := get(t, srv.Client(), srv.URL+"/?token=wrong"); code != http.StatusUnauthorized {
		t.Fatalf("a wrong token: %d", code)
	}
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/jobs", nil)
	req.Header.Set("Authorization", "Bearer s3cret")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("bearer: %d", resp.StatusCode)
	}
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar}
	code, _, _ := get(t, browser, srv.URL+"/jobs?token=s3cret")
	if code != http.StatusOK {
		t.Fatalf("?token= then the cookie: %d", code)
	}
	if code, _, _ := get(t, browser, srv.URL+"/workers"); code != http.StatusOK {
		t.Fatalf("the cookie alone: %d", code)
	}
}

func TestAnUnknownRunIsNotFound(t *testing.T) {
	srv, _, _ := serve(t, console.Options{})
	code, _, body := get(t, srv.Client(), srv.URL+"/jobs/00000000-0000-0000-0000-000000000000")
	if code != http.StatusNotFound || !strings.Contains(body, "X_JOB_NOT_FOUND") {
		t.Fatalf("%d", code)
	}
	if code, _, _ := get(t, srv.Client(), srv.URL+"/jobs/not-an-id"); code != http.StatusBadRequest {
		t.Fatalf("a malformed id: %d", code)
	}
}

func TestAJobPageShowsASensitiveInputRedacted(t *testing.T) {
	pool := fixtures.DB(t)
	secret := pipeline.MustJob("vendor.hook", func(h hostile) string { return "k" },
		func(ctx context.Context, run *pipeline.Run[hostile]) (int, error) { return 0, nil },
		pipeline.JobOptions[hostile, int]{Sensitive: true})
	res, err := secret.Enqueue(t.Context(), pool, hostile{Note: "card-4242"})
	if err != nil {
		t.Fatal(err)
	}
	srv := consoleOn(t, pipeline.NewAdmin(pool), console.Options{})
	_, _, body := get(t, srv.Client(), srv.URL+"/jobs/"+res.ID)
	if strings.Contains(body, "card-4242") || !strings.Contains(body, "[redacted]") {
		t.Fatal("the job page shows a sensitive input")
	}
}
