package refdocs

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pipekit/pipe/errcode"
)

// Errors renders docs/reference/errors.md from package errcode, whose
// source is in dir: every X_* constant of type Code with its class (as
// errcode.ClassOf answers it), its meaning (its doc comment, where it has
// one) and its standard fix (a string constant named after it, such as
// ReplicaConflictFix, where the package declares one), sorted by code.
func Errors(dir string) ([]byte, error) {
	src, err := parseErrcode(dir)
	if err != nil {
		return nil, err
	}
	classes := map[string]bool{}
	var b strings.Builder
	b.WriteString("# Error codes\n\n")
	b.WriteString(generated("package errcode"))
	b.WriteString("\nEvery error pipe raises on purpose carries one of these codes, a message and, most often, " +
		"a fix. Its class says whether the job core retries an attempt that failed with it. " +
		"An application's own codes (errcode.Register) are not listed.\n\n## Classes\n\n")
	var rows [][]string
	for _, c := range src.classes {
		classes[c.value] = true
		rows = append(rows, []string{code(c.value), prose(c.doc, "")})
	}
	table(&b, []string{"class", "meaning"}, rows)
	b.WriteString("## Codes\n\n")
	rows, err = codeRows(src, classes)
	if err != nil {
		return nil, err
	}
	table(&b, []string{"code", "class", "meaning"}, rows)
	return []byte(b.String()), nil
}

// codeRows answers the table's rows, one a code, sorted; a class the
// package does not declare is an error.
func codeRows(src errcodeSource, classes map[string]bool) ([][]string, error) {
	codes := src.codes
	sort.Slice(codes, func(i, j int) bool { return codes[i].value < codes[j].value })
	var rows [][]string
	for _, c := range codes {
		if !strings.HasPrefix(c.value, "X_") {
			continue
		}
		class := string(errcode.ClassOf(errcode.Code(c.value)))
		if !classes[class] {
			return nil, fmt.Errorf("%s is classed %q, which package errcode does not declare", c.value, class)
		}
		meaning := prose(c.doc, c.name)
		if meaning == "" {
			meaning = "—"
		}
		if fix := src.fix(c.name); fix != "" {
			meaning += " **Fix:** " + sentence(prose(fix, ""))
		}
		rows = append(rows, []string{code(c.value), code(class), meaning})
	}
	return rows, nil
}

var docLink = regexp.MustCompile(`\[(\*?[A-Z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)?)\]`)

// prose answers a doc comment as one line of Markdown: a leading "name:"
// cut, its doc links made code spans, its first letter capitalised.
func prose(doc, name string) string {
	doc = strings.Join(strings.Fields(doc), " ")
	if name != "" {
		if rest, ok := strings.CutPrefix(doc, name+":"); ok {
			doc = strings.TrimSpace(rest)
		}
	}
	doc = docLink.ReplaceAllString(doc, "`$1`")
	if doc == "" {
		return ""
	}
	r, size := utf8.DecodeRuneInString(doc)
	return string(unicode.ToUpper(r)) + doc[size:]
}

// sentence answers s ending as a sentence does.
func sentence(s string) string {
	if strings.HasSuffix(s, ".") || strings.HasSuffix(s, "!") || strings.HasSuffix(s, "?") {
		return s
	}
	return s + "."
}
