package pipecli_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/cmd/pipe/pipecli"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// leastRole makes a login role of the test's own, with no right on
// anything, on the server of adminURL, dropped (with its grants on the
// database) when the test ends; it answers the role and adminURL logged in
// as it.
func leastRole(t *testing.T, admin *pgxpool.Pool, adminURL string) (string, string) {
	t.Helper()
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	role := "pipe_least_" + hex.EncodeToString(b)
	q := pgx.Identifier{role}.Sanitize()
	if _, err := admin.Exec(t.Context(), "create role "+q+" login"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx := context.Background()
		if _, err := admin.Exec(ctx, "drop owned by "+q); err != nil {
			t.Errorf("drop the role's grants: %v", err)
		}
		if _, err := admin.Exec(ctx, "drop role "+q); err != nil {
			t.Errorf("drop the role: %v", err)
		}
	})
	u, err := fixtures.WithUser(adminURL, role)
	if err != nil {
		t.Fatal(err)
	}
	return role, u
}

// A role that holds only what `pipe grants` gives runs a worker that claims
// and settles a run, and lists it with the CLI, on a database the owner
// migrated; before the grants, the same commands are refused with
// X_POSTGRES_PERMISSION and a fix that names `pipe grants` for the role.
func TestGrantsLetALeastPrivilegeRoleWork(t *testing.T) {
	t.Parallel()
	admin := fixtures.EmptyDB(t) // logged in as the admin even under PIPE_TEST_ROLE
	// straight to the server: the kit's PgBouncer logs every client in as its own user
	adminURL := fixtures.DirectURL(t, admin.Config().ConnString())
	wantOK(t, execute(t.Context(), pipecli.Options{}, "--database-url", adminURL, "migrate"))
	role, roleURL := leastRole(t, admin, adminURL)
	as := &bundle{url: roleURL, pool: admin}
	job := pipecli.DemoJob()

	refused := as.pipe(t, "jobs", "list")
	wantError(t, refused, 1, "X_POSTGRES_PERMISSION")
	if !strings.Contains(refused.stderr, "pipe grants --role "+role) {
		t.Fatalf("the fix does not name pipe grants for the role:\n%s", refused.stderr)
	}
	worker := execute(t.Context(), pipecli.Options{Jobs: []pipeline.Registrable{job}}, "--database-url", roleURL, "worker")
	wantError(t, worker, 1, "X_POSTGRES_PERMISSION")

	printed := execute(t.Context(), pipecli.Options{}, "grants", "--role", role)
	wantOK(t, printed)
	for _, s := range pipeline.Grants(role) {
		if !strings.Contains(printed.stdout, s+";\n") {
			t.Fatalf("pipe grants does not print %q:\n%s", s, printed.stdout)
		}
	}
	notOwner := execute(t.Context(), pipecli.Options{}, "--database-url", roleURL, "grants", "--role", role, "--apply")
	wantError(t, notOwner, 1, "X_CONFIG_INVALID")
	wantOK(t, execute(t.Context(), pipecli.Options{}, "--database-url", adminURL, "grants", "--role", role, "--apply"))

	rolePool, err := pgxpool.New(t.Context(), roleURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rolePool.Close)
	as.pool = rolePool
	id := as.enqueueDemo(t, "ann")
	stop, done := as.startWorker(t, job, "--queue", "default=2")
	if d := as.waitSettled(t, id); d.State != pipeline.StateDone {
		t.Fatalf("the role's worker settled the run %s, want done", d.State)
	}
	stop()
	wantOK(t, <-done)
	list := as.pipe(t, "jobs", "list", "--state", "done")
	wantOK(t, list)
	if !strings.Contains(list.stdout, id) {
		t.Fatalf("the role's jobs list does not show the run:\n%s", list.stdout)
	}
}
