package coerce

import (
	"strconv"
	"strings"
)

// cutBounds splits an array literal's explicit bounds ([0:1]={1,2},
// [1:2][1:1]={{1},{2}}) from it: the bounds with their =, the length each
// pair gives, and the cell of the braced literal after the =. A cell
// without bounds answers nil and itself. Bounds out of integer range, or
// whose upper is below their lower, are malformed.
func cutBounds(c Cell) ([]byte, []int, Cell, bool) {
	b := trimSpace(c.Bytes)
	if c.Kind != String || len(b) == 0 || b[0] != '[' || !boundsAhead(b) {
		return nil, nil, c, true
	}
	all := b
	var lens []int
	for len(b) > 0 && b[0] == '[' {
		end := 1
		for end < len(b) && b[end] != ']' {
			end++
		}
		if end == len(b) {
			return nil, nil, c, false
		}
		lo, hi, ok := boundPair(string(b[1:end]))
		if !ok || len(lens) == maxDims {
			return nil, nil, c, false
		}
		lens = append(lens, hi-lo+1)
		b = b[end+1:]
	}
	lit := trimSpace(b[min(1, len(b)):])
	if len(b) == 0 || b[0] != '=' || len(lit) == 0 || lit[0] != '{' {
		return nil, nil, c, false
	}
	return all[:len(all)-len(b)+1], lens, Cell{Kind: String, Bytes: lit}, true
}

// boundsAhead reports whether b, beginning with [, is a bounds decoration
// rather than a JSON array: a digit or sign, then a colon before the ].
func boundsAhead(b []byte) bool {
	for _, c := range b[1:] {
		switch {
		case c == ':':
			return true
		case c != '-' && c != '+' && (c < '0' || c > '9'):
			return false
		}
	}
	return false
}

// boundPair reads "lo:hi", two integers with lo <= hi.
func boundPair(s string) (lo, hi int, ok bool) {
	l, h, found := strings.Cut(s, ":")
	lo32, err1 := strconv.ParseInt(l, 10, 32)
	hi32, err2 := strconv.ParseInt(h, 10, 32)
	if !found || err1 != nil || err2 != nil || hi32 < lo32 {
		return 0, 0, false
	}
	return int(lo32), int(hi32), true
}
