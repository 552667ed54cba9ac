package pipecli_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/pipekit/pipe/cmd/pipe/pipecli"
)

// getAs answers the status and body of a GET of u under host.
func getAs(t *testing.T, u, host string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	req.Host = host
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// pipe console answers to loopback names on its port and to
// --allow-host, under --base-path; a rebound name is refused.
func TestConsoleAnswersOnlyToItsHostNames(t *testing.T) {
	t.Parallel()
	b := setup(t)
	r := b.start(t, pipecli.Options{}, "console", "--addr", "127.0.0.1:0", "--allow-host", "ops.example.com", "--base-path", "/ops")
	base := consoleAddr(t, r) // http://127.0.0.1:PORT/ops/
	if !strings.HasSuffix(base, "/ops/") {
		t.Fatalf("the console printed %q", base)
	}
	port := strings.TrimSuffix(strings.TrimPrefix(base, "http://127.0.0.1:"), "/ops/")
	code, body := getAs(t, base, "evil.example:"+port)
	if code != http.StatusMisdirectedRequest || !strings.Contains(body, "X_HOST_REFUSED") || strings.Contains(body, "evil") {
		t.Fatalf("a rebound name: %d %q", code, body)
	}
	for _, host := range []string{"localhost:" + port, "ops.example.com"} {
		if code, body := getAs(t, base+"workers", host); code != http.StatusOK || !strings.Contains(body, `href="/ops/jobs"`) {
			t.Fatalf("Host %s: %d", host, code)
		}
	}
	bad := b.pipe(t, "console", "--addr", "127.0.0.1:0", "--allow-host", "https://ops.example.com/")
	if bad.code != 1 || !strings.Contains(bad.stderr, "X_CONFIG_INVALID") {
		t.Fatalf("a URL for a host name: exit %d %s", bad.code, bad.stderr)
	}
}

// pipe serve serves every Host by default; given --allow-host it refuses
// any other name with a JSON refusal, and still answers its own address.
func TestServeAllowHostRefusesOtherNames(t *testing.T) {
	t.Parallel()
	b := setup(t)
	addrOf := func(args ...string) string {
		srv := b.start(t, pipecli.Options{}, append([]string{"serve", "--addr", "127.0.0.1:0", "--json"}, args...)...)
		waitFor(t, "serve to listen", func() bool { return strings.Contains(srv.stdout.String(), "addr") })
		var up struct {
			Addr string `json:"addr"`
		}
		if err := json.Unmarshal([]byte(srv.stdout.String()), &up); err != nil {
			t.Fatalf("serve printed %q", srv.stdout.String())
		}
		return up.Addr
	}
	open := addrOf()
	if code, _ := getAs(t, "http://"+open+"/healthz", "hooks.example.com"); code != http.StatusOK {
		t.Fatalf("serve without --allow-host refused a name: %d", code)
	}
	guarded := addrOf("--allow-host", "hooks.example.com")
	code, body := getAs(t, "http://"+guarded+"/healthz", "evil.example")
	var refusal struct{ Code string }
	if code != http.StatusMisdirectedRequest || json.Unmarshal([]byte(body), &refusal) != nil || refusal.Code != "X_HOST_REFUSED" || strings.Contains(body, "evil") {
		t.Fatalf("another name: %d %q", code, body)
	}
	for _, host := range []string{"hooks.example.com", guarded} {
		if code, _ := getAs(t, "http://"+guarded+"/healthz", host); code != http.StatusOK {
			t.Fatalf("Host %s: %d", host, code)
		}
	}
}
