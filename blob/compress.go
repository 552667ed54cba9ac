package blob

import (
	"io"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/pipekit/pipe/errcode"
)

// Compress wraps w to compress what is written to it as c says: gzip and
// zstd at their default levels, none passing writes through. Close
// finishes the compressed stream but does not close w. [CompressionAuto]
// has nothing to detect on a write and is X_COMPRESSION_INVALID.
func Compress(w io.Writer, c Compression) (io.WriteCloser, error) {
	c, err := ParseCompression(string(c))
	if err != nil {
		return nil, err
	}
	switch c {
	case CompressionGzip:
		return gzip.NewWriter(w), nil
	case CompressionZstd:
		return newZstdWriter(w)
	case CompressionNone:
		return nopWriteCloser{w}, nil
	}
	return nil, errcode.New(errcode.CompressionInvalid, "compression auto cannot be written").
		WithFix("choose none, gzip or zstd, or derive it from the key with CompressionFromKey")
}

func newZstdWriter(w io.Writer) (io.WriteCloser, error) {
	z, err := zstd.NewWriter(w, zstd.WithEncoderConcurrency(1))
	if err != nil {
		return nil, errcode.Wrap(err, errcode.CompressionInvalid, "zstd encoder refused its options")
	}
	return z, nil
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
