package pipecli_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pipekit/pipe/cmd/pipe/pipecli"
	"github.com/pipekit/pipe/internal/pgserver"
)

// These tests set DATABASE_URL, so they do not run in parallel.

func TestDatabaseURLFromEnvironment(t *testing.T) {
	b := setup(t)
	id := b.enqueueDemo(t, "grace")
	t.Setenv("DATABASE_URL", b.url)
	r := execute(t.Context(), pipecli.Options{}, "jobs", "show", id, "--json")
	wantOK(t, r)
	if !strings.Contains(r.stdout, id) {
		t.Fatalf("show through DATABASE_URL:\n%s", r.stdout)
	}
}

// TestEmbeddedDefault runs the README's first command, `pipe demo` with no
// database named, on a private cluster of the test's own.
func TestEmbeddedDefault(t *testing.T) {
	if testing.Short() {
		t.Skip("initialises a PostgreSQL cluster")
	}
	t.Setenv("DATABASE_URL", "")
	// Not t.TempDir: run as root, the cluster belongs to the postgres user,
	// who must be able to enter every directory above it.
	parent, err := os.MkdirTemp("", "pipecli-embedded-")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(parent, 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(parent, "postgres")
	t.Cleanup(func() {
		ctx := context.Background()
		if srv, err := pgserver.Start(ctx, pgserver.Options{Dir: dir}); err == nil {
			_ = srv.Stop(ctx)
		}
		_ = os.RemoveAll(parent)
	})
	opts := pipecli.Options{DataDir: dir}

	r := execute(t.Context(), opts, "demo", "--json")
	wantOK(t, r)
	if !strings.Contains(r.stderr, "started the private PostgreSQL in "+dir) {
		t.Fatalf("no notice that the cluster started:\n%s", r.stderr)
	}
	if rep := decodeLoose[struct{ Database string }](t, r.stdout); !strings.HasPrefix(rep.Database, "the private PostgreSQL cluster in "+dir+" ") {
		t.Fatalf("the demo does not say where its cluster lives: %q", rep.Database)
	}

	again := execute(t.Context(), opts, "migrate")
	wantOK(t, again)
	if !strings.HasPrefix(again.stdout, "up to date") || again.stderr != "" {
		t.Fatalf("a second command did not reuse the migrated cluster quietly:\n%s%s", again.stdout, again.stderr)
	}
}
