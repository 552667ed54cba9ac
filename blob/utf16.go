package blob

import (
	"encoding/binary"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/transform"
)

// utf16Decoder is a strict UTF-16 to UTF-8 transformer: where
// golang.org/x/text's decoder writes U+FFFD for an unpaired surrogate or an
// odd trailing byte, this one fails, so that bad input is never imported
// silently changed.
type utf16Decoder struct {
	needBOM bool             // refuse input without a byte order mark
	def     binary.ByteOrder // the order when there is no mark
	order   binary.ByteOrder // the order in use, once started
	started bool             // the byte order mark has been looked for
}

func (d *utf16Decoder) Reset() { d.started = false }

func (d *utf16Decoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	if !d.started {
		if nSrc, err = d.readBOM(src, atEOF); err != nil || !d.started {
			return 0, nSrc, err
		}
	}
	for nSrc+2 <= len(src) {
		r, size := d.decodeRune(src[nSrc:], atEOF)
		switch {
		case size == 0:
			return nDst, nSrc, transform.ErrShortSrc
		case r < 0:
			return nDst, nSrc, errSurrogate
		case nDst+utf8.RuneLen(r) > len(dst):
			return nDst, nSrc, transform.ErrShortDst
		}
		nDst += utf8.EncodeRune(dst[nDst:], r)
		nSrc += size
	}
	switch {
	case nSrc == len(src):
		return nDst, nSrc, nil
	case atEOF:
		return nDst, nSrc, errOddLength
	}
	return nDst, nSrc, transform.ErrShortSrc
}

// readBOM consumes a byte order mark and settles the byte order. It answers
// with d.started false when it needs more input (or the input is empty).
func (d *utf16Decoder) readBOM(src []byte, atEOF bool) (int, error) {
	if len(src) < 2 {
		switch {
		case !atEOF:
			return 0, transform.ErrShortSrc
		case len(src) == 1:
			return 0, errOddLength
		}
		return 0, nil // empty input is empty text
	}
	d.started, d.order = true, d.def
	switch {
	case src[0] == 0xff && src[1] == 0xfe:
		d.order = binary.LittleEndian
	case src[0] == 0xfe && src[1] == 0xff:
		d.order = binary.BigEndian
	case d.needBOM:
		return 0, errNoBOM
	default:
		return 0, nil
	}
	return 2, nil
}

// decodeRune decodes the rune at the start of src (at least 2 bytes). It
// answers size 0 when a surrogate pair is cut off before the end of input,
// and rune -1 for an unpaired surrogate.
func (d *utf16Decoder) decodeRune(src []byte, atEOF bool) (rune, int) {
	u := rune(d.order.Uint16(src))
	if !utf16.IsSurrogate(u) {
		return u, 2
	}
	if u >= 0xdc00 {
		return -1, 2
	}
	if len(src) < 4 {
		if atEOF {
			return -1, 2
		}
		return 0, 0
	}
	r := utf16.DecodeRune(u, rune(d.order.Uint16(src[2:])))
	if r == utf8.RuneError {
		return -1, 2
	}
	return r, 4
}
