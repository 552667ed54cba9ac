package pg

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// ParseRelation reads a relation's name as SQL writes it, and as psql users
// type it: "orders", "sales.orders", `"Order Items"`, `Sales."Order Items"`.
// A bare name is folded to lower case, as PostgreSQL folds it (ASCII letters
// only, as PostgreSQL does under UTF-8), so Orders names orders; a quoted
// name is kept as written, a doubled quote inside it standing for one.
// Space around a part or its dot is ignored.
//
// It is PostgreSQL's parse_ident in its strict form, then refuses what
// pipe cannot name: more parts than schema.table, a part over
// [MaxNameBytes] or holding a NUL. Every refusal is X_NAME_INVALID; none
// quotes the name but a long one's first 40 bytes.
func ParseRelation(s string) (Relation, error) {
	parts, err := parseQualified(s)
	if err != nil {
		return Relation{}, err
	}
	var r Relation
	switch len(parts) {
	case 1:
		r.Name = parts[0]
	case 2:
		r.Schema, r.Name = parts[0], parts[1]
	default:
		return Relation{}, invalid(fmt.Sprintf("the relation name has %d parts: name a relation as table or schema.table", len(parts)))
	}
	return r, r.Check()
}

// MustParseRelation is [ParseRelation] that panics on a name that does not
// parse, for names written in the program.
func MustParseRelation(s string) Relation {
	r, err := ParseRelation(s)
	if err != nil {
		panic(err)
	}
	return r
}

// ParseNames reads a comma-separated list of column names as SQL writes
// them, each as [ParseRelation] reads one part: `id, "Order Id"` is id and
// Order Id. A blank list is none; a blank entry, a dotted name or a name
// that does not parse is X_NAME_INVALID.
func ParseNames(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	names, err := parseList(s, "column", ',')
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		if err := CheckName("column", n); err != nil {
			return nil, err
		}
	}
	return names, nil
}

// parseQualified splits a dotted name into its parts, as parse_ident does
// with strict set.
func parseQualified(s string) ([]string, error) {
	if !utf8.ValidString(s) {
		return nil, invalid("the relation name is not UTF-8")
	}
	return parseList(s, "relation", '.')
}

// parseList reads names separated by sep, space around each ignored.
func parseList(s, what string, sep byte) ([]string, error) {
	sc := scanner{s: s}
	var names []string
	for {
		sc.space()
		name, err := sc.name(what)
		if err != nil {
			return nil, err
		}
		names = append(names, name)
		sc.space()
		switch {
		case sc.done():
			return names, nil
		case sc.peek() == sep:
			sc.i++
		default:
			return nil, sc.fault(what, fmt.Sprintf("a name is followed by something other than %q", sep))
		}
	}
}

// scanner reads names from s, as PostgreSQL's SQL lexer reads identifiers.
type scanner struct {
	s string
	i int
}

func (sc *scanner) done() bool { return sc.i >= len(sc.s) }
func (sc *scanner) peek() byte { return sc.s[sc.i] }

// space skips what PostgreSQL's scanner takes as space.
func (sc *scanner) space() {
	for !sc.done() && strings.IndexByte(" \t\n\r\f", sc.peek()) >= 0 {
		sc.i++
	}
}

// name reads one quoted or bare name.
func (sc *scanner) name(what string) (string, error) {
	switch {
	case sc.done():
		return "", sc.fault(what, "a name is missing")
	case sc.peek() == '"':
		return sc.quoted(what)
	case identStart(sc.peek()):
		start := sc.i
		for sc.i++; !sc.done() && identCont(sc.peek()); sc.i++ {
		}
		return fold(sc.s[start:sc.i]), nil
	}
	return "", sc.fault(what, "a name is missing or starts with a character SQL does not start a bare name with (quote it)")
}

// quoted reads a double-quoted name; "" inside stands for ".
func (sc *scanner) quoted(what string) (string, error) {
	var b strings.Builder
	for sc.i++; ; sc.i++ {
		j := strings.IndexByte(sc.s[sc.i:], '"')
		if j < 0 {
			return "", invalid("the " + what + " name has an unclosed double quote")
		}
		b.WriteString(sc.s[sc.i : sc.i+j])
		sc.i += j + 1
		if sc.done() || sc.peek() != '"' {
			break
		}
		b.WriteByte('"')
	}
	if b.Len() == 0 {
		return "", invalid("the " + what + ` name has an empty quoted part ("")`)
	}
	return b.String(), nil
}

func (sc *scanner) fault(what, why string) error {
	return invalid(fmt.Sprintf("the %s name does not parse at byte %d: %s", what, sc.i, why))
}

// identStart and identCont are PostgreSQL's is_ident_start and
// is_ident_cont: ASCII letters, underscore and every byte of a multibyte
// character start a bare name; digits and $ continue one.
func identStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80
}

func identCont(c byte) bool { return identStart(c) || c >= '0' && c <= '9' || c == '$' }

// fold lower-cases the ASCII letters of a bare name, as PostgreSQL's
// downcase_identifier does under a multibyte encoding.
func fold(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
