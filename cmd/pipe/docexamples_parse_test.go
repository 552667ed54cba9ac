package main

import "strings"

// codeFence follows the fenced code blocks of a Markdown file, a line at a
// time: the fence that opened the block it is in (``` or ~~~, three or
// more) and the block's language, the first word of its info string.
type codeFence struct {
	marker string // "" outside a block
	lang   string
}

// advance takes line and reports whether it opens or closes a block.
func (f *codeFence) advance(line string) bool {
	s := strings.TrimLeft(line, " \t")
	run := fenceRun(s)
	switch {
	case run == "":
		return false
	case f.marker == "":
		f.marker = run
		info := strings.Fields(s[len(run):])
		f.lang = ""
		if len(info) > 0 {
			f.lang = strings.ToLower(info[0])
		}
		return true
	case strings.HasPrefix(run, f.marker) && strings.TrimSpace(s[len(run):]) == "":
		f.marker, f.lang = "", ""
		return true
	}
	return false
}

// fenceRun answers the fence s opens with: three or more of ` or ~.
func fenceRun(s string) string {
	if !strings.HasPrefix(s, "```") && !strings.HasPrefix(s, "~~~") {
		return ""
	}
	n := len(s) - len(strings.TrimLeft(s, s[:1]))
	return s[:n]
}

// example answers line's text past its prompt when line is a CLI example
// of the block it is in.
func (f *codeFence) example(line string) (string, bool) {
	switch f.lang {
	case "sh", "shell", "bash", "console":
	default:
		return "", false
	}
	s := strings.TrimSpace(line)
	s, prompted := strings.CutPrefix(s, "$ ")
	if f.lang == "console" && !prompted {
		return "", false // a console block's output
	}
	s = strings.TrimLeft(s, " \t")
	return s, strings.HasPrefix(s, "pipe ")
}

// shellWords splits s as a shell does, variables unexpanded, up to a
// comment or the first operator (| & ; < >).
func shellWords(s string) []string {
	var w wordSplitter
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case w.quote == '\'':
			w.quoted(c, c == '\'')
		case w.quote == '"' && c == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0:
			i++
			w.add(s[i])
		case w.quote == '"':
			w.quoted(c, c == '"')
		case c == '\\' && i+1 < len(s):
			i++
			w.add(s[i])
		case c == '\'' || c == '"':
			w.open(c)
		case c == '#' && !w.started:
			return w.words
		case strings.IndexByte("|&;<>", c) >= 0:
			w.dropFD()
			return w.words
		case c == ' ' || c == '\t':
			w.end()
		default:
			w.add(c)
		}
	}
	w.end()
	return w.words
}

// scriptWords splits a script's line as testscript does, variables
// unexpanded: words apart on spaces, '...' quotes (a doubled ' a quote within), a #
// outside quotes ending the line.
func scriptWords(s string) []string {
	var w wordSplitter
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case w.quote == '\'' && c == '\'' && i+1 < len(s) && s[i+1] == '\'':
			i++
			w.add(c)
		case w.quote == '\'':
			w.quoted(c, c == '\'')
		case c == '\'':
			w.open(c)
		case c == '#':
			w.end()
			return w.words
		case c == ' ' || c == '\t' || c == '\r':
			w.end()
		default:
			w.add(c)
		}
	}
	w.end()
	return w.words
}

// wordSplitter gathers the words of a line.
type wordSplitter struct {
	words   []string
	word    strings.Builder
	started bool // a word is open ('' is one)
	quote   byte // the open quote, or 0
}

func (w *wordSplitter) add(c byte) {
	w.word.WriteByte(c)
	w.started = true
}

func (w *wordSplitter) open(q byte) {
	w.quote = q
	w.started = true
}

// quoted takes c inside quotes: the closing quote, or the word's.
func (w *wordSplitter) quoted(c byte, closes bool) {
	if closes {
		w.quote = 0
		return
	}
	w.add(c)
}

func (w *wordSplitter) end() {
	if w.started {
		w.words = append(w.words, w.word.String())
	}
	w.word.Reset()
	w.started = false
}

// dropFD ends the line at an operator: a word of digits before it is the
// operator's file descriptor (2>), not a word of the command.
func (w *wordSplitter) dropFD() {
	if w.started && w.word.Len() > 0 && strings.Trim(w.word.String(), "0123456789") == "" {
		w.word.Reset()
		w.started = false
	}
	w.end()
}
