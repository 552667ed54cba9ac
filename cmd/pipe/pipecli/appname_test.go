package pipecli_test

import (
	"strings"
	"testing"

	"github.com/pipekit/pipe/cmd/pipe/pipecli"
)

// pipe's connections carry application_name pipe/<command>, so that a DBA
// sees them in pg_stat_activity; a name the URL gives is kept. A trigger
// records the name of the connection that writes the import's rows.
func TestConnectionsAreNamedForTheCommand(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, `create table people(id int primary key, app text default current_setting('application_name'))`)
	path := writeFile(t, "p.csv", "id\n1\n")
	wantOK(t, b.pipe(t, "import", path, "--into", "people", "--wait"))
	named := b.url + " application_name=mine"
	if strings.HasPrefix(b.url, "postgres") {
		named = b.url + map[bool]string{true: "&", false: "?"}[strings.Contains(b.url, "?")] + "application_name=mine"
	}
	path = writeFile(t, "p.csv", "id\n2\n")
	wantOK(t, execute(t.Context(), pipecli.Options{}, "--database-url", named, "import", path, "--into", "people", "--wait"))
	var apps []string
	rows, err := b.pool.Query(t.Context(), `select app from people order by id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			t.Fatal(err)
		}
		apps = append(apps, a)
	}
	if strings.Join(apps, ",") != "pipe/import,mine" {
		t.Fatalf("the rows were written by %v, want pipe/import, then the URL's own name", apps)
	}
}
