package importrows

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pipekit/pipe/errcode"
)

// FuzzMatchHeader: a header matches exactly when it names each declared
// column once, in any order; a mismatch is X_IMPORT_HEADER_MISMATCH, and
// when no header name is a column (the first line may be a row of data)
// its message is the one any such header of that width gets: it quotes
// nothing of the line.
func FuzzMatchHeader(f *testing.F) {
	for _, s := range []string{"id,name,Order Id,day", "day,id,Order Id,name", "id,id,name", "1,alice,7,2026-01-01", "ID,Name,order_id,Day", "", "id,name,Order Id,day,x"} {
		f.Add(s)
	}
	declared := []string{"id", "name", "Order Id", "day"}
	f.Fuzz(func(t *testing.T, line string) {
		header := strings.Split(line, ",")
		err := matchHeader(header, declared)
		sorted := slices.Sorted(slices.Values(header))
		want := slices.Sorted(slices.Values(declared))
		if match := slices.Equal(sorted, want); match != (err == nil) {
			t.Fatalf("header %q: %v, want a match %v", header, err, match)
		}
		if err == nil {
			return
		}
		if errcode.CodeOf(err) != errcode.ImportHeaderMismatch {
			t.Fatalf("header %q: refusal coded %q", header, errcode.CodeOf(err))
		}
		if slices.ContainsFunc(header, func(h string) bool { return slices.Contains(declared, h) }) {
			return
		}
		blind := make([]string, len(header))
		for i := range blind {
			blind[i] = fmt.Sprintf("\x00%d", i)
		}
		if other := matchHeader(blind, declared); err.Error() != other.Error() {
			t.Fatalf("header %q, none a column: %q; another header of its width: %q", header, err, other)
		}
	})
}
