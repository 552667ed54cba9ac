package exportrows

import (
	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// pageZstd compresses an export's Parquet pages with zstd at its default
// level. It keeps one encoder whose window is a page's size, where
// parquet-go's shared codec pools encoders sized for streams: a pool the
// garbage collector empties, each refill megabytes.
type pageZstd struct {
	enc *zstd.Encoder
}

func newPageZstd() (*pageZstd, error) {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithWindowSize(pageBytes),
		zstd.WithLowerEncoderMem(true), zstd.WithZeroFrames(true), zstd.WithEncoderCRC(false))
	if err != nil {
		return nil, err
	}
	return &pageZstd{enc: enc}, nil
}

func (z *pageZstd) String() string                            { return "ZSTD" }
func (z *pageZstd) CompressionCodec() format.CompressionCodec { return format.Zstd }

// Encode compresses one page; EncodeAll is safe for concurrent use.
func (z *pageZstd) Encode(dst, src []byte) ([]byte, error) { return z.enc.EncodeAll(src, dst[:0]), nil }

// Decode is parquet-go's: an export only writes.
func (z *pageZstd) Decode(dst, src []byte) ([]byte, error) { return parquet.Zstd.Decode(dst, src) }
