package pipecli_test

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"

	"github.com/pipekit/pipe/cmd/pipe/pipecli"
)

// consoleAddr waits for the line a served console prints and answers its
// base URL.
func consoleAddr(t *testing.T, r *running) string {
	t.Helper()
	line := r.stderr.waitLine(t, "the console's address", func(l string) bool { return strings.HasPrefix(l, "console on ") })
	return strings.Fields(strings.TrimPrefix(line, "console on "))[0]
}

func getPage(t *testing.T, url string) (int, string) {
	t.Helper()
	jar, _ := cookiejar.New(nil) // a browser keeps the cookie ?token= sets
	resp, err := (&http.Client{Jar: jar}).Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

func TestConsoleServesUntilStopped(t *testing.T) {
	t.Parallel()
	b := setup(t)
	id := b.enqueueDemo(t, "ada")
	r := b.start(t, pipecli.Options{}, "console", "--addr", "127.0.0.1:0")
	base := consoleAddr(t, r)
	code, body := getPage(t, base+"jobs/"+id)
	if code != http.StatusOK || !strings.Contains(body, "demo.onboard") || strings.Contains(body, `/cancel"`) {
		t.Fatalf("the job page: %d, read-only %v", code, !strings.Contains(body, `/cancel"`))
	}
	wantOK(t, r.wait())
	if _, err := http.Get(base); err == nil {
		t.Fatal("the console still answers after the command stopped")
	}
}

func TestConsoleOffLoopbackNeedsAToken(t *testing.T) {
	t.Parallel()
	b := setup(t)
	r := b.pipe(t, "console", "--addr", ":0")
	if r.code != 1 || !strings.Contains(r.stderr, "X_CONFIG_INVALID") || !strings.Contains(r.stderr, "--token") {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	withToken := b.start(t, pipecli.Options{}, "console", "--addr", ":0", "--token", "t0ken")
	base := strings.Replace(consoleAddr(t, withToken), "[::]", "127.0.0.1", 1)
	if code, _ := getPage(t, base); code != http.StatusUnauthorized {
		t.Fatalf("no token: %d", code)
	}
	if code, _ := getPage(t, base+"?token=t0ken"); code != http.StatusOK {
		t.Fatalf("?token=: %d", code)
	}
}

func TestDevServesTheConsole(t *testing.T) {
	t.Parallel()
	b := setup(t)
	dev := b.start(t, pipecli.Options{}, "dev", "--console-addr", "127.0.0.1:0", "--allow-actions")
	base := consoleAddr(t, dev)
	code, body := getPage(t, base+"workers")
	if code != http.StatusOK || !strings.Contains(body, "actions allowed") {
		t.Fatalf("the workers page: %d", code)
	}
	wantOK(t, dev.wait())
}
