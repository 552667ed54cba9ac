package blob

import (
	"encoding/binary"
	"errors"
	"io"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/transform"

	"github.com/pipekit/pipe/errcode"
)

// Decode wraps r so that it reads as UTF-8 text in encoding e.
//
// UTF-8 passes through untouched and unchecked; a leading UTF-8 byte order
// mark is left for the caller (an import's splitter drops it). UTF-16 is
// transcoded, its byte order mark consumed; [EncodingUTF16] requires one,
// while utf-16le and utf-16be take one if present (and a mark of the
// other order wins). An unpaired surrogate,
// an odd trailing byte or a missing required mark is X_ENCODING_INVALID
// from Read, which never quotes the input. Latin-1 and Windows-1252 map
// every byte and cannot fail. r's own errors pass through unchanged.
func Decode(r io.Reader, e Encoding) (io.Reader, error) {
	e, err := ParseEncoding(string(e))
	if err != nil {
		return nil, err
	}
	var t transform.Transformer
	switch e {
	case EncodingUTF8:
		return r, nil
	case EncodingLatin1:
		t = charmap.ISO8859_1.NewDecoder()
	case EncodingWindows1252:
		t = charmap.Windows1252.NewDecoder()
	case EncodingUTF16:
		t = &utf16Decoder{needBOM: true}
	case EncodingUTF16LE:
		t = &utf16Decoder{def: binary.LittleEndian}
	case EncodingUTF16BE:
		t = &utf16Decoder{def: binary.BigEndian}
	}
	return &decodeReader{r: transform.NewReader(r, t), e: e}, nil
}

// decodeReader codes the transcoder's complaints.
type decodeReader struct {
	r io.Reader
	e Encoding
}

func (d *decodeReader) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	var bad *invalidInput
	if errors.As(err, &bad) {
		err = errcode.Wrap(err, errcode.EncodingInvalid, "%s input %s", d.e, bad.reason).
			WithFix("check the encoding setting against the file; " + bad.fix)
	}
	return n, err
}

// invalidInput is what the UTF-16 decoder found wrong.
type invalidInput struct{ reason, fix string }

func (e *invalidInput) Error() string { return "input " + e.reason }

var (
	errNoBOM = &invalidInput{"has no byte order mark",
		"name utf-16le or utf-16be when the file has no byte order mark"}
	errOddLength = &invalidInput{"ends in the middle of a character",
		"the file may be truncated or not UTF-16"}
	errSurrogate = &invalidInput{"has an unpaired surrogate",
		"the file may be corrupt or not UTF-16"}
)
