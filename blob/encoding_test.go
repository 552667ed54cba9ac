package blob_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/blob/blobtest"
	"github.com/pipekit/pipe/errcode"
)

// decode reads in through Decode, one byte at a time so that every
// boundary of the transcoder is crossed.
func decode(t *testing.T, in []byte, e blob.Encoding) (string, error) {
	t.Helper()
	r, err := blob.Decode(iotest.OneByteReader(bytes.NewReader(in)), e)
	if err != nil {
		return "", err
	}
	out, err := io.ReadAll(r)
	return string(out), err
}

func TestDecode(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		in   []byte
		e    blob.Encoding
		want string
	}{
		{"utf-8 untouched, BOM kept", []byte("\xef\xbb\xbfZoë\xff"), "", "\ufeffZoë\xff"},
		{"utf-16 LE BOM", []byte("\xff\xfeZ\x00o\x00\xeb\x00"), blob.EncodingUTF16, "Zoë"},
		{"utf-16 BE BOM", []byte("\xfe\xff\x00Z\x00o\x00\xeb"), blob.EncodingUTF16, "Zoë"},
		{"utf-16 surrogate pair", []byte("\xff\xfe\x3d\xd8\x00\xde"), blob.EncodingUTF16, "😀"},
		{"utf-16 empty", nil, blob.EncodingUTF16, ""},
		{"utf-16le no BOM", []byte("Z\x00\xac\x20"), blob.EncodingUTF16LE, "Z€"},
		{"utf-16le BOM consumed", []byte("\xff\xfeZ\x00"), blob.EncodingUTF16LE, "Z"},
		{"utf-16be no BOM", []byte("\x00Z\x20\xac"), blob.EncodingUTF16BE, "Z€"},
		{"latin-1", []byte("Zo\xeb"), blob.EncodingLatin1, "Zoë"},
		{"iso-8859-1 alias", []byte("\x80\xff"), "ISO-8859-1", "\u0080ÿ"},
		{"windows-1252", []byte("\x80 Zo\xeb"), blob.EncodingWindows1252, "€ Zoë"},
		{"cp1252 alias", []byte("\x93q\x94"), "cp1252", "“q”"},
	} {
		got, err := decode(t, c.in, c.e)
		blobtest.RequireNoError(t, err)
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestDecodeRefusesInvalidUTF16(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		in   []byte
		e    blob.Encoding
	}{
		{"no BOM", []byte("Z\x00o\x00"), blob.EncodingUTF16},
		{"one byte", []byte("Z"), blob.EncodingUTF16LE},
		{"odd length", []byte("\xff\xfeZ\x00o"), blob.EncodingUTF16},
		{"odd length BE", []byte("\x00Z\x00"), blob.EncodingUTF16BE},
		{"lone low surrogate", []byte("\x00\xdcZ\x00"), blob.EncodingUTF16LE},
		{"high surrogate then letter", []byte("\x3d\xd8Z\x00"), blob.EncodingUTF16LE},
		{"high surrogate at end", []byte("Z\x00\x3d\xd8"), blob.EncodingUTF16LE},
		{"high surrogate and a byte at end", []byte("\x3d\xd8\x00"), blob.EncodingUTF16LE},
	} {
		_, err := decode(t, c.in, c.e)
		if !errors.Is(err, errcode.EncodingInvalid) {
			t.Errorf("%s: error = %v, want X_ENCODING_INVALID", c.name, err)
			continue
		}
		if e, _ := errcode.As(err); strings.Contains(e.Message, "Z") {
			t.Errorf("%s: message %q quotes the input", c.name, e.Message)
		}
	}
}

// TestDecodeLongInput crosses the transcoder's buffer size.
func TestDecodeLongInput(t *testing.T) {
	t.Parallel()
	want := strings.Repeat("Zoë😀,", 5000)
	in := []byte{0xfe, 0xff}
	for _, u := range []uint16{'Z', 'o', 0xeb, 0xd83d, 0xde00, ','} {
		in = append(in, byte(u>>8), byte(u))
	}
	in = append(in[:2], bytes.Repeat(in[2:], 5000)...)
	r, err := blob.Decode(bytes.NewReader(in), blob.EncodingUTF16)
	blobtest.RequireNoError(t, err)
	got, err := io.ReadAll(r)
	blobtest.RequireNoError(t, err)
	if string(got) != want {
		t.Fatalf("decoded %d bytes, want %d", len(got), len(want))
	}
}

func TestDecodePassesSourceErrors(t *testing.T) {
	t.Parallel()
	for _, e := range []blob.Encoding{blob.EncodingUTF16, blob.EncodingUTF16LE, blob.EncodingLatin1} {
		src := io.MultiReader(strings.NewReader("\xff\xfeZ\x00"), iotest.ErrReader(errcode.New(errcode.BlobUnavailable, "source failed")))
		r, err := blob.Decode(src, e)
		blobtest.RequireNoError(t, err)
		_, err = io.ReadAll(r)
		blobtest.RequireCode(t, err, errcode.BlobUnavailable)
	}
}

func TestParseEncoding(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]blob.Encoding{
		"": blob.EncodingUTF8, "UTF8": blob.EncodingUTF8, "utf-16": blob.EncodingUTF16,
		"UTF-16LE": blob.EncodingUTF16LE, "utf16be": blob.EncodingUTF16BE, "latin1": blob.EncodingLatin1,
		"iso-8859-1": blob.EncodingLatin1, "Windows-1252": blob.EncodingWindows1252, "cp1252": blob.EncodingWindows1252,
	} {
		got, err := blob.ParseEncoding(in)
		blobtest.RequireNoError(t, err)
		if got != want {
			t.Errorf("ParseEncoding(%q) = %s, want %s", in, got, want)
		}
	}
	for _, in := range []string{"ebcdic", "utf-32", "shift_jis"} {
		_, err := blob.ParseEncoding(in)
		blobtest.RequireCode(t, err, errcode.EncodingInvalid)
		if e, _ := errcode.As(err); !strings.Contains(e.Fix, "windows-1252") || strings.Contains(e.Message, in) {
			t.Errorf("%s: fix %q must name the encodings and message %q not quote the input", in, e.Fix, e.Message)
		}
	}
	_, err := blob.Decode(strings.NewReader(""), "koi8-r")
	blobtest.RequireCode(t, err, errcode.EncodingInvalid)
}

func TestDetectEncoding(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]blob.Encoding{
		"\xef\xbb\xbfa": blob.EncodingUTF8, "\xff\xfea\x00": blob.EncodingUTF16LE,
		"\xfe\xff\x00a": blob.EncodingUTF16BE, "abc": "", "": "", "\xef\xbb": "",
	} {
		if got := blob.DetectEncoding([]byte(in)); got != want {
			t.Errorf("DetectEncoding(%q) = %q, want %q", in, got, want)
		}
	}
}
