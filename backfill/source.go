package backfill

import (
	"fmt"
	"strings"

	"github.com/pipekit/pipe/internal/pgcatalog"
)

// source is what a batch reads: the relation or query, its key and the
// key's type, and the statements generated from them. Every name in them
// is quoted; the values are parameters.
type source struct {
	from    string // a quoted relation or (query), aliased s
	key     string // the quoted key column
	keyType string // the key's type, as a cast names it
	cols    string // the quoted columns a Handle is handed, after the key
}

// bounds answers the statement that reads the next batch's range: its
// first and last keys (as the key's type and as text) and its row count.
// $1 is the batch size; after the first batch, $2 the cursor as text.
func (s source) bounds(first bool) string {
	return fmt.Sprintf(`select min(k), max(k), max(k)::text, count(*) from (select s.%s k from %s %s order by s.%s limit $1) b`,
		s.key, s.from, s.after(first), s.key)
}

// rows answers the statement that reads the next batch's rows for a
// Handle: the key as text, then the declared columns.
func (s source) rows(first bool) string {
	return fmt.Sprintf(`select s.%s::text%s from %s %s order by s.%s limit $1`, s.key, s.cols, s.from, s.after(first), s.key)
}

func (s source) after(first bool) string {
	if first {
		return ""
	}
	return fmt.Sprintf("where s.%s > $2::text::%s", s.key, s.keyType)
}

func columnList(cols []string) string {
	if len(cols) == 0 {
		return ""
	}
	var b strings.Builder
	for _, c := range cols {
		b.WriteString(", s." + pgcatalog.Quote(c))
	}
	return b.String()
}
