package coerce

// boolOf reads c as a boolean: a Bool cell as is; a String cell as one of
// PostgreSQL's spellings in any case — true, t, yes, y, on, 1 and false,
// f, no, n, off, 0. PostgreSQL's unique prefixes (tr, ye, of...) are
// refused.
func boolOf(c Cell) (bool, bool) {
	switch c.Kind {
	case Bool:
		return c.Bool, true
	case String:
		b := trimSpace(c.Bytes)
		if len(b) > 5 {
			return false, false
		}
		var low [5]byte
		for i, ch := range b {
			if 'A' <= ch && ch <= 'Z' {
				ch += 'a' - 'A'
			}
			low[i] = ch
		}
		switch string(low[:len(b)]) {
		case "true", "t", "yes", "y", "on", "1":
			return true, true
		case "false", "f", "no", "n", "off", "0":
			return false, true
		}
	}
	return false, false
}

func appendBool(dst []byte, c Cell) ([]byte, bool) {
	v, ok := boolOf(c)
	return append(dst, boolText(v)...), ok
}

func boolValue(c Cell) (any, bool) {
	v, ok := boolOf(c)
	return v, ok
}
