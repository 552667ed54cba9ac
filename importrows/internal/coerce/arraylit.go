package coerce

// nextLiteral reads the next element of a PostgreSQL array literal (a
// sub-array, braces included, is one element): elements separated by
// commas, each either quoted ("a b", with \" and \\ escapes) or bare
// (surrounding whitespace dropped, a backslash escaping the next
// character; an unescaped NULL in any case is a NULL element; an empty one
// is malformed).
func (e *elements) nextLiteral(scratch []byte) (Cell, bool, bool) {
	if e.end {
		return Cell{}, false, true
	}
	s := e.src
	e.i = skip(s, e.i, isSpace)
	if e.n == 0 && s[e.i] == '}' {
		return Cell{}, false, e.i == len(s)-1
	}
	var c Cell
	var ok bool
	e.sub = s[e.i] == '{'
	switch {
	case e.sub:
		c, ok = e.braced()
	case s[e.i] == '"':
		c, ok = e.quoted(scratch)
	default:
		c, ok = e.bare(scratch)
	}
	if !ok {
		return c, false, false
	}
	e.i = skip(s, e.i, isSpace)
	switch {
	case e.i < len(s)-1 && s[e.i] == ',':
		e.i++
	case e.i == len(s)-1:
		e.end = true // the closing brace
	default:
		return c, false, false
	}
	e.n++
	return c, true, true
}

// braced reads a sub-array literal, braces included, to its matching
// closing brace (braces in quoted or escaped text do not count).
func (e *elements) braced() (Cell, bool) {
	s, depth, quoted := e.src, 0, false
	for i := e.i; i < len(s)-1; i++ {
		switch c := s[i]; {
		case c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '{':
			depth++
		case c == '}':
			if depth--; depth == 0 {
				c := Cell{Kind: String, Bytes: s[e.i : i+1]}
				e.i = i + 1
				return c, true
			}
		}
	}
	return Cell{}, false
}

func (e *elements) quoted(scratch []byte) (Cell, bool) {
	s := e.src
	i, plain := e.i+1, true
	for ; i < len(s) && s[i] != '"'; i++ {
		if s[i] == '\\' {
			plain = false
			i++
		}
	}
	if i >= len(s) {
		return Cell{}, false
	}
	raw := s[e.i+1 : i]
	e.i = i + 1
	if plain {
		return Cell{Kind: String, Bytes: raw}, true
	}
	return Cell{Kind: String, Bytes: unbackslash(scratch, raw)}, true
}

func (e *elements) bare(scratch []byte) (Cell, bool) {
	s := e.src
	i, last, plain := e.i, e.i, true
	for ; i < len(s) && s[i] != ',' && s[i] != '}'; i++ {
		switch c := s[i]; {
		case c == '"' || c == '{':
			return Cell{}, false
		case c == '\\':
			plain = false
			i++
			last = i + 1
		case !isSpace(c):
			last = i + 1
		}
	}
	raw := s[e.i:min(last, len(s))]
	e.i = i
	switch {
	case len(raw) == 0 || i >= len(s):
		return Cell{}, false
	case !plain:
		return Cell{Kind: String, Bytes: unbackslash(scratch, raw)}, true
	case isNullWord(raw):
		return Cell{Kind: Null}, true
	}
	return Cell{Kind: String, Bytes: raw}, true
}

// unbackslash appends raw to dst with each backslash escape replaced by
// the character it escapes.
func unbackslash(dst, raw []byte) []byte {
	for i := 0; i < len(raw); i++ {
		if raw[i] == '\\' && i+1 < len(raw) {
			i++
		}
		dst = append(dst, raw[i])
	}
	return dst
}

func skip(s []byte, i int, space func(byte) bool) int {
	for i < len(s) && space(s[i]) {
		i++
	}
	return i
}
