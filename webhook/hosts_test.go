package webhook_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/webhook"
)

// OnlyHosts serves its names, loopback names on the server's port and the
// server's address, and refuses any other Host as JSON that does not
// quote it.
func TestOnlyHostsRefusesOtherNames(t *testing.T) {
	h, err := webhook.OnlyHosts(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "served") }), "hooks.example.com")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	addr := strings.TrimPrefix(srv.URL, "http://")
	port := addr[strings.LastIndex(addr, ":")+1:]
	for host, want := range map[string]int{
		"hooks.example.com": 200, "hooks.example.com:8443": 200, addr: 200, "localhost:" + port: 200,
		"evil.example": 421, "localhost:1": 421,
	} {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/hooks/vendor", strings.NewReader("{}"))
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Host %s: %d, want %d", host, resp.StatusCode, want)
		}
		var refusal struct{ Code string }
		if want == 421 && (json.Unmarshal(body, &refusal) != nil || refusal.Code != string(errcode.HostRefused) || strings.Contains(string(body), "evil")) {
			t.Errorf("Host %s: the refusal %q", host, body)
		}
	}
	if _, err := webhook.OnlyHosts(http.NotFoundHandler(), "hooks.example.com/path"); errcode.CodeOf(err) != errcode.ConfigInvalid {
		t.Fatalf("a path for a name: %v", err)
	}
}
