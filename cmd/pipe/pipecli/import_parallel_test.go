package pipecli_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/pipekit/pipe/importrows"
)

// TestImportParallelWaits: `pipe import --parallel 3 --wait` splits the file
// into ranges worked in this process, upserts the last occurrence of each
// key as the sequential import does, and reports a refused row with its
// line.
func TestImportParallelWaits(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, `create table seq(id int primary key, name text not null); create table par(like seq including all)`)
	var s strings.Builder
	s.WriteString("id,name\n")
	for i := range 20000 {
		fmt.Fprintf(&s, "%d,\"n\n%d\"\n", i%100, i)
	}
	s.WriteString("x,bad\n")
	path := writeFile(t, "people.csv", s.String())
	seq := b.pipe(t, "import", path, "--into", "seq", "--key", "id", "--wait", "--json")
	r := b.pipe(t, "import", path, "--into", "par", "--key", "id", "--wait", "--json", "--parallel", "3", "--range-bytes", "65536")
	if r.code != 3 || seq.code != 3 { // completed, with a refused row
		t.Fatalf("exit %d, sequential %d\n%s", r.code, seq.code, r.stderr)
	}
	var res importrows.Result
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	if res.Rows != 20000 || res.Refused != 1 || res.Pages != 3 { // a page a range
		t.Fatalf("result %+v", res)
	}
	var diff, n int
	if err := b.pool.QueryRow(t.Context(), `select (select count(*) from (select * from seq except select * from par) d),
		(select count(*) from par where name = e'n\n19999')`).Scan(&diff, &n); err != nil || diff != 0 || n != 1 {
		t.Fatalf("%d rows differ, %d last occurrences, %v", diff, n, err)
	}
	if r := b.pipe(t, "import", path, "--into", "par", "--parallel", "0", "--wait"); r.code != 2 {
		t.Fatalf("--parallel 0 exited %d", r.code)
	}
}
