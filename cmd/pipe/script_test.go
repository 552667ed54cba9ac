package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/pipekit/pipe/fixtures"
)

// TestMain lets the test binary be the pipe command: a script's `exec pipe`
// runs this package's main in a process of its own, as a user's shell
// would run the installed binary.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"pipe": main})
}

// The CLI's behaviour as scripts: every testdata/script/*.txtar runs
// against a fresh database of its own (migrated, as the kit makes it),
// named by DATABASE_URL, with the command `sql` beside pipe for what a
// user does with psql. The kit's modes apply: PIPE_TEST_POOLER=pgbouncer
// leads DATABASE_URL through PgBouncer, PIPE_TEST_ROLE logs it in as the
// role of least privilege (OWNER_URL is then the schema owner's URL of the
// same database).
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		Setup:               setupScript,
		Cmds:                map[string]func(*testscript.TestScript, bool, []string){"sql": cmdSQL},
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
	})
}

// setupScript gives the script its database: DATABASE_URL and OWNER_URL,
// and the PostgreSQL client settings the kit found the server with.
func setupScript(env *testscript.Env) error {
	t := env.T().(testing.TB)
	url := fixtures.DBURL(t)
	env.Setenv("DATABASE_URL", url)
	env.Setenv("OWNER_URL", ownerURL(t, url))
	for k, v := range clientEnv() {
		env.Setenv(k, v)
	}
	return nil
}

// ownerURL answers the URL of url's database logged in as the owner of
// schema pipe: url itself unless the kit runs as a role of least privilege.
func ownerURL(t testing.TB, url string) string {
	pool, err := pgxpool.New(t.Context(), url) // connects on first use: Owner reads only its settings
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return fixtures.Owner(t, pool).Config().ConnString()
}

// clientEnv answers the PG* variables of the test process, and PGPASSFILE
// at the user's ~/.pgpass: a script's HOME is none, and its pipe must
// reach the server as the kit did.
func clientEnv() map[string]string {
	vars := map[string]string{}
	for _, kv := range os.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(k, "PG") {
			vars[k] = v
		}
	}
	if home, err := os.UserHomeDir(); err == nil && vars["PGPASSFILE"] == "" {
		vars["PGPASSFILE"] = filepath.Join(home, ".pgpass")
	}
	return vars
}
