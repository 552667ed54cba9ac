package blob

import (
	"bufio"
	"bytes"
	"io"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

var (
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// Decompress is [DecompressLimited] with the default limits: a zstd window
// of at most [DefaultMaxWindow], no ratio or size limit.
func Decompress(r io.Reader, c Compression) (io.ReadCloser, Compression, error) {
	return DecompressLimited(r, c, DecompressLimits{})
}

// DecompressLimited wraps r to read it decompressed as c says, within lim.
// With [CompressionAuto] it peeks at the first bytes, losing none, and
// picks gzip (1f 8b), zstd (28 b5 2f fd) or none; it answers the
// compression used. Corrupt or truncated data is X_COMPRESSION_INVALID, a
// zstd window above the limit X_COMPRESSION_WINDOW_TOO_LARGE, output past
// the ratio or byte limit X_DECOMPRESSED_TOO_LARGE — from DecompressLimited
// when the header says so and from Read after. r's own errors pass through
// unchanged. Close releases the decoder but not r.
//
// The decoder's memory is bounded: gzip keeps a 32 KiB window, zstd at
// most lim's window (plus two 128 KiB blocks), each beside a 4 KiB read
// buffer. Uncompressed data passes through, unlimited.
func DecompressLimited(r io.Reader, c Compression, lim DecompressLimits) (io.ReadCloser, Compression, error) {
	c, err := ParseCompression(string(c))
	if err != nil {
		return nil, "", err
	}
	if err := lim.Check(); err != nil {
		return nil, "", err
	}
	src := &sourceReader{r: r}
	br := bufio.NewReader(src)
	if c == CompressionAuto {
		c = sniff(br)
	}
	if c == CompressionZstd {
		if err := checkZstdWindow(br, lim.window()); err != nil {
			return nil, "", err
		}
	}
	d, err := newDecoder(br, c, lim.window())
	if err != nil {
		return nil, "", decodeFailure(src, err, c, lim)
	}
	if c == CompressionNone {
		return d, c, nil
	}
	return &decompressor{d: d, src: src, c: c, lim: lim}, c, nil
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

// newDecoder answers c's decoder over r. zstd decodes on the calling
// goroutine, its window and its one-shot output both capped at window.
func newDecoder(r io.Reader, c Compression, window int64) (io.ReadCloser, error) {
	switch c {
	case CompressionGzip:
		return gzip.NewReader(r)
	case CompressionZstd:
		z, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
			zstd.WithDecoderMaxWindow(uint64(window)), zstd.WithDecoderMaxMemory(uint64(window)))
		if err != nil {
			return nil, err
		}
		return z.IOReadCloser(), nil
	}
	return io.NopCloser(r), nil
}

// decompressor codes the decoder's errors and counts what it inflates to.
type decompressor struct {
	d   io.ReadCloser
	src *sourceReader
	c   Compression
	lim DecompressLimits
	out int64
	err error // the first failure, answered by every later Read
}

func (d *decompressor) Read(p []byte) (int, error) {
	if d.err != nil {
		return 0, d.err
	}
	n, err := d.d.Read(p)
	d.out += int64(n)
	switch {
	case !d.lim.allows(d.src.n, d.out):
		d.err = tooLarge(d.c, d.lim)
	case err != nil && err != io.EOF:
		d.err = decodeFailure(d.src, err, d.c, d.lim)
	default:
		return n, err
	}
	return n, d.err
}

func (d *decompressor) Close() error { return d.d.Close() }

// sourceReader remembers the error of the reader under a decoder, so that
// a failing source is not mistaken for corrupt data, and counts the bytes
// the decoder has taken from it.
type sourceReader struct {
	r   io.Reader
	err error
	n   int64
}

func (s *sourceReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	s.n += int64(n)
	if err != nil && err != io.EOF {
		s.err = err
	}
	return n, err
}
