package pipecli_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// --quotes and the settings flags reach the import: a bare quote is kept,
// 01/02/2015 is read day first, and a wrong value is refused at once with
// its code, enqueueing nothing.
func TestImportQuotesAndSettingsFlags(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, `create table places(id int primary key, place text, d date)`)
	path := writeFile(t, "p.csv", "id,place,d\n1,37°36'37.8\"N,01/02/2015\n")
	r := b.pipe(t, "import", path, "--into", "places", "--quotes", "lenient", "--datestyle", "ISO, DMY", "--wait")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	var place, d string
	if err := b.pool.QueryRow(t.Context(), `select place, d::text from places`).Scan(&place, &d); err != nil {
		t.Fatal(err)
	}
	if place != `37°36'37.8"N` || d != "2015-02-01" {
		t.Fatalf("place %q, date %s", place, d)
	}
	for _, flags := range [][]string{{"--quotes", "loose"}, {"--datestyle", "Dutch"}, {"--intervalstyle", "verbose"}} {
		r := b.pipe(t, append([]string{"import", path, "--into", "places"}, flags...)...)
		wantError(t, r, 1, "X_JOB_INPUT_INVALID")
	}
	var runs int
	if err := b.pool.QueryRow(t.Context(), `select count(*) from pipe.jobs`).Scan(&runs); err != nil || runs != 1 {
		t.Fatalf("%d runs (%v): a refused flag enqueued one", runs, err)
	}
}

// A refused record's report row names the CSV rule it broke beside its
// code, and when some broke the bare-quote rule the summary (and a run
// failed for too many refusals, its fix) names --quotes lenient.
func TestARefusedRowNamesItsRule(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, `create table places(id int primary key, place text)`)
	path := writeFile(t, "p.csv", "id,place\n1,the \"old\" mill\n2,ok\n3,\"x\"y\n4,a,b\n5,fine\n")
	r := b.pipe(t, "import", path, "--into", "places", "--wait")
	if r.code != 3 || !strings.Contains(r.stdout, "1 of them for a quote inside an unquoted field (rule bare-quote): --quotes lenient reads such quotes as data") {
		t.Fatalf("exit %d; the summary does not name --quotes lenient:\n%s%s", r.code, r.stdout, r.stderr)
	}
	report, err := os.ReadFile(filepath.Join(path+".errors", runIDOf(t, b), "errors-00000.ndjson"))
	if err != nil {
		t.Fatal(err)
	}
	var rules []string
	for _, line := range strings.Split(strings.TrimSpace(string(report)), "\n") {
		var row struct {
			Line int64  `json:"line"`
			Code string `json:"code"`
			Rule string `json:"rule"`
		}
		if err := json.Unmarshal([]byte(line), &row); err != nil || row.Code != "X_IMPORT_RECORD_INVALID" {
			t.Fatalf("report row %q: %v", line, err)
		}
		rules = append(rules, fmt.Sprintf("%d:%s", row.Line, row.Rule))
	}
	if want := []string{"2:bare-quote", "4:text-after-quote", "5:field-count"}; !slices.Equal(rules, want) {
		t.Fatalf("the report's rules %v; want %v", rules, want)
	}
	r = b.pipe(t, "import", path, "--into", "places", "--max-row-errors", "0", "--page-bytes", "65536", "--key", "id", "--wait")
	wantError(t, r, 1, "X_IMPORT_TOO_MANY_ERRORS")
	if !strings.Contains(r.stderr, "(rule bare-quote): lenient quotes (pipe import --quotes lenient)") {
		t.Fatalf("the failure's fix does not name lenient quotes:\n%s", r.stderr)
	}
}

// runIDOf answers the id of the database's one pipe.import run.
func runIDOf(t *testing.T, b *bundle) string {
	t.Helper()
	var id string
	if err := b.pool.QueryRow(t.Context(), `select id::text from pipe.jobs where name = 'pipe.import' order by created_at limit 1`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}
