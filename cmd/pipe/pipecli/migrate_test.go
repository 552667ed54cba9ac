package pipecli_test

import (
	"strings"
	"testing"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// dropSchema undoes the fixture's migration, as the schema's owner.
func (b *bundle) dropSchema(t *testing.T) {
	t.Helper()
	if _, err := fixtures.Owner(t, b.pool).Exec(t.Context(), `drop schema pipe cascade`); err != nil {
		t.Fatal(err)
	}
}

// owner answers the bundle's database logged in as the owner of schema
// pipe (the bundle itself unless the tests run as a role of least
// privilege): `pipe migrate` is the owner's.
func (b *bundle) owner(t *testing.T) *bundle {
	t.Helper()
	p := fixtures.Owner(t, b.pool)
	return &bundle{url: p.Config().ConnString(), pool: p}
}

func TestMigrateTwiceSecondIsNoOp(t *testing.T) {
	t.Parallel()
	b := setup(t).owner(t)
	b.dropSchema(t)

	first := b.pipe(t, "migrate")
	wantOK(t, first)
	if !strings.HasPrefix(first.stdout, "applied version") {
		t.Fatalf("first migrate printed %q, want the versions it applied", first.stdout)
	}

	second := b.pipe(t, "migrate")
	wantOK(t, second)
	if !strings.HasPrefix(second.stdout, "up to date") {
		t.Fatalf("second migrate printed %q, want up to date", second.stdout)
	}

	type migrated struct {
		Applied []int `json:"applied"`
		Version int   `json:"version"`
		Moved   int64 `json:"legacyRunsMoved"`
	}
	third := b.pipe(t, "migrate", "--json")
	wantOK(t, third)
	got := decode[migrated](t, third.stdout)
	if len(got.Applied) != 0 || got.Version != pipeline.LatestMigration() || got.Moved != 0 {
		t.Fatalf("migrate --json on a migrated database = %+v", got)
	}
}

func TestCommandsRefuseUnmigratedDatabase(t *testing.T) {
	t.Parallel()
	t.Run("no schema", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		b.dropSchema(t)
		r := b.pipe(t, "jobs", "list")
		wantError(t, r, 1, "X_CONFIG_INVALID")
		if !strings.Contains(r.stderr, "fix: run `pipe migrate`") {
			t.Fatalf("the fix does not say to migrate:\n%s", r.stderr)
		}
	})
	t.Run("older version", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		if _, err := fixtures.Owner(t, b.pool).Exec(t.Context(), `delete from pipe.migrations`); err != nil {
			t.Fatal(err)
		}
		r := b.pipe(t, "demo")
		wantError(t, r, 1, "X_CONFIG_INVALID")
		if !strings.Contains(r.stderr, "version 0") || !strings.Contains(r.stderr, "fix: run `pipe migrate`") {
			t.Fatalf("stderr does not name the version and the fix:\n%s", r.stderr)
		}
	})
}

func TestMigrateRefusesAnEditedMigration(t *testing.T) {
	t.Parallel()
	b := setup(t)
	// As if 0007 had been applied from another text than the one shipped.
	if _, err := fixtures.Owner(t, b.pool).Exec(t.Context(), `update pipe.migrations set checksum = 'edited' where version = 7`); err != nil {
		t.Fatal(err)
	}
	r := b.pipe(t, "migrate")
	wantError(t, r, 1, "X_MIGRATION_CHANGED")
	if !strings.Contains(r.stderr, "0007") {
		t.Fatalf("the refusal does not name the version:\n%s", r.stderr)
	}
}
