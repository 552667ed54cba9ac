package backfill

import (
	"regexp"
	"strings"
)

// statementFault answers why sql cannot be a batch's statement, or "". It
// reads the statement's words outside strings, quoted names and comments:
// one statement, an UPDATE, a DELETE or an INSERT … SELECT, that names the
// batch's range, $1 and $2. Whether its WHERE keeps it inside that range is
// the statement's contract and cannot be checked here.
func statementFault(sql string) string {
	words, semis := scanWords(sql)
	if semis > 0 {
		return "SQL holds more than one statement"
	}
	if len(words) == 0 {
		return "SQL is empty"
	}
	switch words[0] {
	case "update", "delete":
	case "insert":
		if !contains(words, "select") {
			return "SQL is an INSERT without a SELECT: a batch inserts what it selects from its range"
		}
	default:
		return "SQL is not one UPDATE, DELETE or INSERT … SELECT"
	}
	if !contains(words, "$1") || !contains(words, "$2") {
		return "SQL does not name the batch's range: $1 is its first key and $2 its last (where id between $1 and $2)"
	}
	return ""
}

func contains(words []string, w string) bool {
	for _, x := range words {
		if x == w {
			return true
		}
	}
	return false
}

var (
	wordRe   = regexp.MustCompile(`\$[0-9]+|[A-Za-z_][A-Za-z_0-9$]*`)
	dollarRe = regexp.MustCompile(`^\$([A-Za-z_][A-Za-z_0-9]*)?\$`)
)

// scanWords answers sql's lower-cased words and parameters outside string
// literals, quoted identifiers and comments, and how many semicolons stand
// before the last word.
func scanWords(sql string) (words []string, semis int) {
	var pending int
	plain := func(s string) {
		for _, w := range wordRe.FindAllString(s, -1) {
			words = append(words, strings.ToLower(w))
			semis += pending
			pending = 0
		}
		pending += strings.Count(s, ";")
	}
	for sql != "" {
		i := strings.IndexAny(sql, `'"-/$;`)
		if i < 0 {
			plain(sql)
			break
		}
		plain(sql[:i])
		sql = sql[i:]
		sql = skip(sql, plain)
	}
	return words, semis
}

// skip consumes what stands at the start of s: a quoted or commented run, or
// one plain character handed to plain.
func skip(s string, plain func(string)) string {
	switch {
	case s[0] == '\'' || s[0] == '"':
		return after(s[1:], s[:1])
	case strings.HasPrefix(s, "--"):
		return after(s, "\n")
	case strings.HasPrefix(s, "/*"):
		return after(s[2:], "*/")
	case s[0] == '$':
		if tag := dollarRe.FindString(s); tag != "" {
			return after(s[len(tag):], tag)
		}
		if m := wordRe.FindStringIndex(s); m != nil && m[0] == 0 {
			plain(s[:m[1]])
			return s[m[1]:]
		}
	}
	plain(s[:1])
	return s[1:]
}

// after answers s past the first end, or "" when there is none.
func after(s, end string) string {
	if i := strings.Index(s, end); i >= 0 {
		return s[i+len(end):]
	}
	return ""
}
