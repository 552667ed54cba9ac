package blob

import (
	"bufio"
	"bytes"
	"io"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/pipekit/pipe/errcode"
)

var (
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// Decompress wraps r to read it decompressed as c says. With
// [CompressionAuto] it peeks at the first bytes, losing none, and picks
// gzip (1f 8b), zstd (28 b5 2f fd) or none; it answers the compression
// used. Corrupt or truncated data is X_COMPRESSION_INVALID, from
// Decompress when the header is bad and from Read after; r's own errors
// pass through unchanged. Close releases the decoder but not r.
func Decompress(r io.Reader, c Compression) (io.ReadCloser, Compression, error) {
	c, err := ParseCompression(string(c))
	if err != nil {
		return nil, "", err
	}
	src := &sourceReader{r: r}
	br := bufio.NewReader(src)
	if c == CompressionAuto {
		c = sniff(br)
	}
	d, err := newDecoder(br, c)
	if err != nil {
		return nil, "", corrupt(src, err, c)
	}
	return &decompressor{d: d, src: src, c: c}, c, nil
}

// sniff detects the compression from br's first bytes, consuming none.
func sniff(br *bufio.Reader) Compression {
	head, _ := br.Peek(len(zstdMagic)) // a short stream is simply not compressed
	switch {
	case bytes.HasPrefix(head, gzipMagic):
		return CompressionGzip
	case bytes.HasPrefix(head, zstdMagic):
		return CompressionZstd
	}
	return CompressionNone
}

func newDecoder(r io.Reader, c Compression) (io.ReadCloser, error) {
	switch c {
	case CompressionGzip:
		return gzip.NewReader(r)
	case CompressionZstd:
		z, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true))
		if err != nil {
			return nil, err
		}
		return z.IOReadCloser(), nil
	}
	return io.NopCloser(r), nil
}

// decompressor codes the decoder's errors.
type decompressor struct {
	d   io.ReadCloser
	src *sourceReader
	c   Compression
}

func (d *decompressor) Read(p []byte) (int, error) {
	n, err := d.d.Read(p)
	if err != nil && err != io.EOF {
		err = corrupt(d.src, err, d.c)
	}
	return n, err
}

func (d *decompressor) Close() error { return d.d.Close() }

// corrupt answers the source's own error if it failed, else codes err as
// corrupt data.
func corrupt(src *sourceReader, err error, c Compression) error {
	if src.err != nil {
		return src.err
	}
	return errcode.Wrap(err, errcode.CompressionInvalid, "%s data is corrupt or truncated", c).
		WithFix("check that the object is whole and that the compression setting matches it")
}

// sourceReader remembers the error of the reader under a decoder, so that
// a failing source is not mistaken for corrupt data.
type sourceReader struct {
	r   io.Reader
	err error
}

func (s *sourceReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err != nil && err != io.EOF {
		s.err = err
	}
	return n, err
}
