package pipecli_test

import (
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
