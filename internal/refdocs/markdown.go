package refdocs

import (
	"regexp"
	"strings"
)

// oneLine answers s on one line, its runs of white space one space each.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// code answers s as a code span, on one line.
func code(s string) string {
	if s == "" {
		return ""
	}
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + oneLine(s) + fence
}

// table writes a Markdown table of header and rows on b, each cell on one
// line and its pipes escaped.
func table(b *strings.Builder, header []string, rows [][]string) {
	line := func(cells []string) {
		fit := make([]string, len(cells))
		for i, c := range cells {
			fit[i] = strings.ReplaceAll(oneLine(c), "|", `\|`)
		}
		b.WriteString("| " + strings.Join(fit, " | ") + " |\n")
	}
	line(header)
	rule := make([]string, len(header))
	for i := range rule {
		rule[i] = "---"
	}
	line(rule)
	for _, r := range rows {
		line(r)
	}
	b.WriteString("\n")
}

// fenced writes text in a fenced block of plain text on b.
func fenced(b *strings.Builder, text string) {
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	b.WriteString(fence + "text\n" + strings.TrimRight(text, "\n") + "\n" + fence + "\n\n")
}

var anchorDrop = regexp.MustCompile(`[^a-z0-9 _-]`)

// anchor answers the fragment GitHub gives a heading of text.
func anchor(text string) string {
	return strings.ReplaceAll(anchorDrop.ReplaceAllString(strings.ToLower(text), ""), " ", "-")
}
