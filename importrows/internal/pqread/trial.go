package pqread

import (
	"bytes"
	"errors"
	"io"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go/format"
	"github.com/pierrec/lz4/v4"

	"github.com/pipekit/pipe/errcode"
)

// trial decompresses page bodies into nothing, to learn what parquet-go's
// codecs would make of them before they run: those grow their output to
// whatever the data inflates to, whatever the header said (and its LZ4
// codec doubles its buffer for ever on data that is merely corrupt). Each
// decoder's memory is bounded: zstd's window by the limit, gzip's is 32
// KiB, brotli's at most 16 MiB (its large-window extension is refused),
// snappy's output is read from its header, and LZ4 decodes into one
// scratch buffer of the page's size. The decoders are kept for the file.
type trial struct {
	zstd    *zstd.Decoder
	gzip    *gzip.Reader
	brotli  *brotli.Reader
	scratch []byte
	body    bytes.Reader
}

var errInflates = errors.New("page inflates past its header's size")

// check refuses body, a page of c, unless it decompresses to at most want
// bytes.
func (t *trial) check(c *chunkGuard, body []byte, want int64) error {
	var got int64
	var err error
	switch c.codec {
	case format.Snappy:
		var n int
		n, err = snappy.DecodedLen(body)
		got = int64(n)
	case format.Lz4Raw:
		got, err = t.lz4(body, want)
	case format.Gzip, format.Brotli, format.Zstd:
		got, err = t.stream(c, body, want)
	default:
		return nil // stored as it is, or a codec parquet-go refuses itself
	}
	switch {
	case errors.Is(err, zstd.ErrWindowSizeExceeded) || errors.Is(err, zstd.ErrDecoderSizeExceeded):
		return errcode.Wrap(err, errcode.CompressionWindowTooLarge, "parquet file: %s asks for a zstd window larger than the limit of %s", c.where(), mib(c.g.lim.window())).
			WithFix("rewrite the file with zstd pages of a smaller window, or raise the window limit (`pipe import --max-window-bytes`)")
	case err != nil:
		return c.corrupt(err)
	case got > want:
		return errcode.Wrap(errInflates, errcode.DecompressedTooLarge, "parquet file: %s inflates past the %s its header declares", c.where(), mib(want)).
			WithFix("the file is damaged or was made to inflate; re-export it")
	}
	return nil
}

// stream decompresses body with a stream codec, counting at most want+1
// bytes of its output.
func (t *trial) stream(c *chunkGuard, body []byte, want int64) (int64, error) {
	t.body.Reset(body)
	r, err := t.reader(c, &t.body)
	if err != nil {
		return 0, err
	}
	return io.Copy(io.Discard, io.LimitReader(r, want+1))
}

// reader answers c's codec's decoder over body, made once and reset after.
func (t *trial) reader(c *chunkGuard, body io.Reader) (io.Reader, error) {
	switch c.codec {
	case format.Gzip:
		if t.gzip == nil {
			var err error
			t.gzip, err = gzip.NewReader(body)
			return t.gzip, err
		}
		return t.gzip, t.gzip.Reset(body)
	case format.Brotli:
		if t.brotli == nil {
			t.brotli = brotli.NewReader(body)
		}
		return t.brotli, t.brotli.Reset(body)
	}
	if t.zstd == nil {
		w := uint64(c.g.lim.window())
		d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
			zstd.WithDecoderMaxWindow(w), zstd.WithDecoderMaxMemory(w))
		if err != nil {
			return nil, err
		}
		t.zstd = d
	}
	return t.zstd, t.zstd.Reset(body)
}

// lz4 decodes body into the scratch buffer, of exactly want bytes: a body
// that needs more does not decode.
func (t *trial) lz4(body []byte, want int64) (int64, error) {
	if int64(cap(t.scratch)) < want {
		t.scratch = make([]byte, want)
	}
	n, err := lz4.UncompressBlock(body, t.scratch[:want])
	return int64(n), err
}

// close releases the zstd decoder.
func (t *trial) close() {
	if t.zstd != nil {
		t.zstd.Close()
	}
}
