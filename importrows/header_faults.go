package importrows

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/pipekit/pipe/errcode"
)

// matchHeader checks the file's columns against the declared ones: the same
// set, in any order.
func matchHeader(file, declared []string) error {
	h := headerFaults{header: file, columns: declared}
	seen := map[string]bool{}
	for i, c := range file {
		switch {
		case !slices.Contains(declared, c):
			h.unknown = append(h.unknown, i+1)
		case seen[c]:
			h.repeated = append(h.repeated, c)
		}
		seen[c] = true
	}
	for _, c := range declared {
		if !seen[c] {
			h.missing = append(h.missing, c)
		}
	}
	return h.err("the declared columns")
}

// headerFaults are what is wrong with a file's columns (header) against
// the names it must match (columns). Header names are the user's column
// names, so an unknown one is named — unless no header name matches at
// all: then the first line may be a row of data (a file without a header)
// and the unknown ones are given by position only, never quoted.
type headerFaults struct {
	header, columns   []string
	missing, repeated []string
	unknown           []int // 1-based positions in header
}

// err answers X_IMPORT_HEADER_MISMATCH naming every fault, or nil;
// against names what the header was checked against.
func (h headerFaults) err(against string) error {
	var parts []string
	if len(h.missing) > 0 {
		parts = append(parts, "missing "+strings.Join(h.missing, ", "))
	}
	if len(h.unknown) > 0 {
		parts = append(parts, h.unknownPart())
	}
	if len(h.repeated) > 0 {
		parts = append(parts, "repeated "+strings.Join(h.repeated, ", "))
	}
	if len(parts) == 0 {
		return nil
	}
	return errcode.New(errcode.ImportHeaderMismatch, "import: the file's columns do not match %s: %s", against, strings.Join(parts, "; ")).
		WithFix("the header must name exactly those columns, in any order; names match exactly — case, spaces and quotes count, as in a quoted SQL name "+
			"(a CSV file's first line is its header: without one, its first row is read as one)").
		WithMeta("missing", strings.Join(h.missing, ",")).WithMeta("unknown", strings.Join(itoas(h.unknown), ","))
}

// unknownPart names the header's unknown names, each with its position and
// the column it nearly matches, or — none matching — their positions.
func (h headerFaults) unknownPart() string {
	if len(h.unknown) == len(h.header) {
		return "unknown: the file's " + positions(h.unknown) + " (none is a column, so none is quoted: is the first line a header?)"
	}
	named := make([]string, len(h.unknown))
	for i, pos := range h.unknown {
		name := h.header[pos-1]
		named[i] = fmt.Sprintf("%s (column %d", strconv.Quote(name), pos)
		if c := nearMiss(name, h.columns); c != "" {
			named[i] += "; did you mean " + c + "?"
		}
		named[i] += ")"
	}
	return "unknown " + strings.Join(named, ", ")
}

// nearMiss answers the column name differs from only by case, spaces,
// hyphens or underscores, or "".
func nearMiss(name string, columns []string) string {
	fold := func(s string) string {
		return strings.NewReplacer(" ", "", "_", "", "-", "").Replace(strings.ToLower(strings.TrimSpace(s)))
	}
	for _, c := range columns {
		if fold(c) == fold(name) {
			return c
		}
	}
	return ""
}

// positions says "column 4" or "columns 2, 5 and 7".
func positions(ns []int) string {
	s := itoas(ns)
	if len(s) == 1 {
		return "column " + s[0]
	}
	return "columns " + strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

func itoas(ns []int) []string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return s
}

func noHeader() error {
	return errcode.New(errcode.ImportHeaderMismatch, "import: the file has no header line (it is empty, a BOM alone or blank lines)").
		WithFix("a CSV import needs a header naming the columns; check that the right file was named")
}
