package blob

import (
	"bytes"
	"strings"

	"github.com/pipekit/pipe/errcode"
)

// Encoding names a text encoding to read as UTF-8.
type Encoding string

// The encodings. The zero value means [EncodingUTF8].
const (
	EncodingUTF8 Encoding = "utf-8"
	// EncodingUTF16 takes its byte order from a byte order mark the input
	// must start with.
	EncodingUTF16       Encoding = "utf-16"
	EncodingUTF16LE     Encoding = "utf-16le"
	EncodingUTF16BE     Encoding = "utf-16be"
	EncodingLatin1      Encoding = "latin-1"
	EncodingWindows1252 Encoding = "windows-1252"
)

var encodingNames = map[string]Encoding{
	"": EncodingUTF8, "utf-8": EncodingUTF8, "utf8": EncodingUTF8,
	"utf-16": EncodingUTF16, "utf16": EncodingUTF16,
	"utf-16le": EncodingUTF16LE, "utf16le": EncodingUTF16LE,
	"utf-16be": EncodingUTF16BE, "utf16be": EncodingUTF16BE,
	"latin-1": EncodingLatin1, "latin1": EncodingLatin1, "iso-8859-1": EncodingLatin1,
	"windows-1252": EncodingWindows1252, "cp1252": EncodingWindows1252,
}

// ParseEncoding parses an encoding name, in any case: utf-8 (or ""),
// utf-16, utf-16le, utf-16be, latin-1 (or latin1, iso-8859-1) and
// windows-1252 (or cp1252). Anything else is X_ENCODING_INVALID.
func ParseEncoding(s string) (Encoding, error) {
	if e, ok := encodingNames[strings.ToLower(strings.TrimSpace(s))]; ok {
		return e, nil
	}
	return "", errcode.New(errcode.EncodingInvalid, "encoding is not supported").
		WithFix("use utf-8, utf-16, utf-16le, utf-16be, latin-1 (iso-8859-1) or windows-1252 (cp1252)")
}

var (
	bomUTF8    = []byte{0xef, 0xbb, 0xbf}
	bomUTF16LE = []byte{0xff, 0xfe}
	bomUTF16BE = []byte{0xfe, 0xff}
)

// DetectEncoding recognises a byte order mark at the start of peek: UTF-8,
// UTF-16LE or UTF-16BE. It answers "" when there is none.
func DetectEncoding(peek []byte) Encoding {
	switch {
	case bytes.HasPrefix(peek, bomUTF8):
		return EncodingUTF8
	case bytes.HasPrefix(peek, bomUTF16LE):
		return EncodingUTF16LE
	case bytes.HasPrefix(peek, bomUTF16BE):
		return EncodingUTF16BE
	}
	return ""
}
