package pipecli_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/cmd/pipe/pipecli"
	"github.com/pipekit/pipe/fixtures"
)

// tlsBundle is a fresh migrated database on the kit's TLS server, reached
// with sslmode=verify-full and the kit's CA.
func tlsBundle(t *testing.T) (*bundle, *fixtures.TLS) {
	t.Helper()
	s := fixtures.TLSServer(t)
	u := s.DBURL(t)
	pool, err := pgxpool.New(t.Context(), u)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return &bundle{url: u, pool: pool}, s
}

// withPassword answers u with a password, which no error may show.
func withPassword(t *testing.T, u string) string {
	t.Helper()
	parsed, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	parsed.User = url.UserPassword(parsed.User.Username(), "hunter2")
	return parsed.String()
}

func TestCommandsOverVerifiedTLS(t *testing.T) {
	t.Parallel()
	b, _ := tlsBundle(t)
	if r := b.pipe(t, "migrate"); r.code != 0 || !strings.HasPrefix(r.stdout, "up to date") {
		t.Fatalf("migrate over TLS: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	id := b.enqueueDemo(t, "grace")
	list := b.pipe(t, "jobs", "list")
	wantOK(t, list)
	if !strings.Contains(list.stdout, id) {
		t.Fatalf("jobs list over TLS does not list %s:\n%s", id, list.stdout)
	}

	release := make(chan struct{})
	close(release)
	job := blockingJob(t, false, make(chan string, 1), release)
	res, err := job.Enqueue(t.Context(), b.pool, blockInput{Key: "tls"})
	if err != nil {
		t.Fatal(err)
	}
	stop, done := b.startWorker(t, job)
	if d := b.waitSettled(t, res.ID); d.State != "done" {
		t.Fatalf("the worker over TLS left the run %s", d.State)
	}
	stop()
	wantOK(t, <-done)
}

// Each refusal is X_CONFIG_INVALID, names the setting to change and quotes
// nothing of the URL: not its password, not its CA file.
func TestTLSRefusalsNameTheSetting(t *testing.T) {
	t.Parallel()
	b, s := tlsBundle(t)
	plain := fixtures.RestartableServer(t)
	for _, c := range []struct {
		name, url string
		want      []string
	}{
		{"wrong CA", s.URL(t, b.url, fixtures.TLSParams{RootCert: s.OtherCAFile()}), []string{"sslrootcert", "no certificate authority the client trusts"}},
		{"host not in the certificate", s.URL(t, b.url, fixtures.TLSParams{Host: "127.0.0.2"}), []string{"host", "it is for localhost, 127.0.0.1, not for host 127.0.0.2"}},
		{"no CA file", s.URL(t, b.url, fixtures.TLSParams{RootCert: t.TempDir() + "/missing.crt"}), []string{"sslrootcert", "cannot be read"}},
		{"TLS required of a server without it", strings.Replace(plain.URL(), "sslmode=disable", "sslmode=require", 1), []string{"sslmode", "does not offer TLS"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := execute(t.Context(), pipecli.Options{}, "--database-url", withPassword(t, c.url), "jobs", "list")
			wantError(t, r, 1, "X_CONFIG_INVALID")
			for _, w := range c.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("the refusal does not say %q:\n%s", w, r.stderr)
				}
			}
			for _, secret := range []string{"hunter2", s.CAFile(), s.OtherCAFile(), "missing.crt"} {
				if strings.Contains(r.stderr, secret) {
					t.Errorf("the refusal quotes the URL (%s):\n%s", secret, r.stderr)
				}
			}
		})
	}
}
