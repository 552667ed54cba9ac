package pipecli_test

import (
	"strings"
	"testing"
)

// A second import of the same file into the same table with other options
// is a run of its own, never merged into the live one (whose options would
// be the ones that ran); the same import asked for again says it was not
// enqueued and names the live run. Exports alike.
func TestAnotherImportOrExportIsNeverMergedIntoALiveOne(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, `create table people(id int primary key)`)
	path := writeFile(t, "p.csv", "id\n1\n")
	dir := t.TempDir()
	for _, c := range []struct{ first, other []string }{
		{[]string{"import", path, "--into", "people"}, []string{"--max-row-errors", "0", "--encoding", "latin-1"}},
		{[]string{"export", "people", "--to", dir}, []string{"--where", "id > 1"}},
	} {
		first := decodeLoose[struct{ ID string }](t, b.pipe(t, append(c.first, "--json")...).stdout)
		again := b.pipe(t, c.first...)
		wantOK(t, again)
		if !strings.Contains(again.stdout, "not enqueued") || !strings.Contains(again.stdout, first.ID) {
			t.Errorf("%v again: %s", c.first, again.stdout)
		}
		other := b.pipe(t, append(append(c.first, c.other...), "--json")...)
		wantOK(t, other)
		q := decodeLoose[struct {
			ID      string
			Deduped bool
		}](t, other.stdout)
		if q.Deduped || q.ID == first.ID {
			t.Errorf("%v with %v was merged into run %s", c.first, c.other, first.ID)
		}
	}
}
