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

var text = []byte(strings.Repeat("id,name\n1,Zoë\n", 1000))

func compress(t *testing.T, c blob.Compression, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := blob.Compress(&buf, c)
	blobtest.RequireNoError(t, err)
	_, err = w.Write(data)
	blobtest.RequireNoError(t, err)
	blobtest.RequireNoError(t, w.Close())
	return buf.Bytes()
}

// decompress reads data through Decompress and answers what it read and
// the compression it found.
func decompress(t *testing.T, data []byte, c blob.Compression) ([]byte, blob.Compression, error) {
	t.Helper()
	r, found, err := blob.Decompress(bytes.NewReader(data), c)
	if err != nil {
		return nil, "", err
	}
	defer r.Close()
	out, err := io.ReadAll(r)
	return out, found, err
}

func TestCompressionRoundTrip(t *testing.T) {
	t.Parallel()
	for _, c := range []blob.Compression{blob.CompressionNone, blob.CompressionGzip, blob.CompressionZstd} {
		packed := compress(t, c, text)
		if c != blob.CompressionNone && len(packed) >= len(text) {
			t.Fatalf("%s did not compress: %d bytes", c, len(packed))
		}
		for _, how := range []blob.Compression{c, blob.CompressionAuto, ""} {
			got, found, err := decompress(t, packed, how)
			blobtest.RequireNoError(t, err)
			if found != c || !bytes.Equal(got, text) {
				t.Fatalf("%s read as %q: found %s, %d bytes", c, how, found, len(got))
			}
		}
	}
}

func TestCompressDoesNotCloseWriter(t *testing.T) {
	t.Parallel()
	var closed bool
	w, err := blob.Compress(closeRecorder{&bytes.Buffer{}, &closed}, blob.CompressionGzip)
	blobtest.RequireNoError(t, err)
	blobtest.RequireNoError(t, w.Close())
	if closed {
		t.Fatal("Compress's Close closed the underlying writer")
	}
	_, err = blob.Compress(io.Discard, blob.CompressionAuto)
	blobtest.RequireCode(t, err, errcode.CompressionInvalid)
}

type closeRecorder struct {
	io.Writer
	closed *bool
}

func (c closeRecorder) Close() error { *c.closed = true; return nil }

func TestDecompressAutoShortInput(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"", "a", "\x1f", "\x28\xb5"} {
		got, found, err := decompress(t, []byte(in), blob.CompressionAuto)
		blobtest.RequireNoError(t, err)
		if found != blob.CompressionNone || string(got) != in {
			t.Fatalf("%q: found %s, read %q", in, found, got)
		}
	}
}

func TestDecompressCorrupt(t *testing.T) {
	t.Parallel()
	gz, zst := compress(t, blob.CompressionGzip, text), compress(t, blob.CompressionZstd, text)
	flipped := func(b []byte, i int) []byte { b = bytes.Clone(b); b[i] ^= 0xff; return b }
	for name, c := range map[string]struct {
		data []byte
		as   blob.Compression
	}{
		"truncated gzip":      {gz[:len(gz)/2], blob.CompressionAuto},
		"gzip missing footer": {gz[:len(gz)-4], blob.CompressionGzip},
		"gzip bad checksum":   {flipped(gz, len(gz)-6), blob.CompressionGzip},
		"gzip bad header":     {flipped(gz, 3), blob.CompressionAuto},
		"gzip trailing junk":  {append(bytes.Clone(gz), "junk"...), blob.CompressionGzip},
		"not gzip":            {text, blob.CompressionGzip},
		"empty as gzip":       {nil, blob.CompressionGzip},
		"truncated zstd":      {zst[:len(zst)/2], blob.CompressionAuto},
		"corrupt zstd":        {flipped(zst, len(zst)/2), blob.CompressionZstd},
		"not zstd":            {text, blob.CompressionZstd},
	} {
		_, _, err := decompress(t, c.data, c.as)
		if !errors.Is(err, errcode.CompressionInvalid) {
			t.Errorf("%s: error = %v, want X_COMPRESSION_INVALID", name, err)
		}
	}
}

// TestDecompressPassesSourceErrors checks that a failing source is not
// reported as corrupt data.
func TestDecompressPassesSourceErrors(t *testing.T) {
	t.Parallel()
	errSource := errcode.New(errcode.BlobUnavailable, "source failed")
	for _, c := range []blob.Compression{blob.CompressionGzip, blob.CompressionZstd} {
		packed := compress(t, c, text)
		for _, how := range []blob.Compression{c, blob.CompressionAuto} {
			src := io.MultiReader(bytes.NewReader(packed[:len(packed)/2]), iotest.ErrReader(errSource))
			r, _, err := blob.Decompress(src, how)
			if err == nil {
				_, err = io.ReadAll(r)
			}
			if !errors.Is(err, errcode.BlobUnavailable) || errors.Is(err, errcode.CompressionInvalid) {
				t.Fatalf("%s read as %s: error = %v, want the source's", c, how, err)
			}
		}
	}
}

func TestParseCompression(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]blob.Compression{
		"": blob.CompressionAuto, "auto": blob.CompressionAuto, "GZIP": blob.CompressionGzip,
		" zstd ": blob.CompressionZstd, "none": blob.CompressionNone,
	} {
		got, err := blob.ParseCompression(in)
		blobtest.RequireNoError(t, err)
		if got != want {
			t.Errorf("ParseCompression(%q) = %s, want %s", in, got, want)
		}
	}
	for _, in := range []string{"bzip2", "gz", "lz4"} {
		_, err := blob.ParseCompression(in)
		blobtest.RequireCode(t, err, errcode.CompressionInvalid)
	}
	_, _, err := blob.Decompress(bytes.NewReader(nil), "brotli")
	blobtest.RequireCode(t, err, errcode.CompressionInvalid)
}

func TestCompressionExtensions(t *testing.T) {
	t.Parallel()
	for key, want := range map[string]blob.Compression{
		"a.csv.gz": blob.CompressionGzip, "a.GZIP": blob.CompressionGzip, "d/a.zst": blob.CompressionZstd,
		"a.zstd": blob.CompressionZstd, "a.csv": blob.CompressionNone, "gz": blob.CompressionNone,
	} {
		if got := blob.CompressionFromKey(key); got != want {
			t.Errorf("CompressionFromKey(%q) = %s, want %s", key, got, want)
		}
		if got := blob.CompressionFromKey("f" + want.Ext()); got != want {
			t.Errorf("%s.Ext() = %q does not round trip", want, want.Ext())
		}
	}
}
