package importrows

import (
	"strings"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/importrows/internal/pqread"
)

// The defaults of [DecodeLimits].
const (
	// DefaultMaxRatio: a compressed file may inflate to 200 times its size.
	// Real exports stay far below (a log of near-identical lines, zstd at
	// its best level: 114x); gzip's maximum is 1,032x and a zstd bomb's
	// tens of thousands.
	DefaultMaxRatio = 200
	// DefaultMaxWindowBytes is the largest zstd window read: 8 MiB, what
	// RFC 8878 asks every decoder to support and zstd's levels 1-19 write.
	DefaultMaxWindowBytes = blob.DefaultMaxWindow
	// DefaultMaxParquetPageBytes is the memory one Parquet page may need.
	DefaultMaxParquetPageBytes = pqread.DefaultMaxPageBytes
	// DefaultMaxParquetMemory is the memory a Parquet row group's open
	// pages may need together.
	DefaultMaxParquetMemory = pqread.DefaultMaxMemory
)

// DecodeLimits bound what decoding a file may take, so that a hostile or
// broken file is refused with a code before it takes the worker's memory,
// whatever its size. A zero field takes its default (in [Options]) or the
// declared value (in [Limits]).
type DecodeLimits struct {
	// MaxRatio refuses a compressed file once it has inflated to more than
	// MaxRatio times the compressed bytes read (after a first MiB), and a
	// Parquet file whose pages inflate, by its footer, to more than
	// MaxRatio times its size: X_DECOMPRESSED_TOO_LARGE. A bomb — a
	// thousandfold and more — is refused within its first MiB, before its
	// first page is written; a file just past the ratio, once it has
	// inflated that far. Default [DefaultMaxRatio].
	MaxRatio int64 `json:"maxRatio,omitempty"`
	// MaxDecodedBytes refuses a compressed file once it has inflated past
	// this size, and a Parquet file whose pages would: X_DECOMPRESSED_TOO_LARGE.
	// Default none.
	MaxDecodedBytes int64 `json:"maxDecodedBytes,omitempty"`
	// MaxWindowBytes refuses a zstd stream or Parquet page whose window
	// (the history its decoder keeps) is larger:
	// X_COMPRESSION_WINDOW_TOO_LARGE. Default [DefaultMaxWindowBytes]; at
	// most 2 GiB (zstd --long=31).
	MaxWindowBytes int64 `json:"maxWindowBytes,omitempty"`
	// MaxParquetPageBytes refuses a Parquet page (or dictionary) that
	// needs more memory to read — its bytes and its decoded values:
	// X_PARQUET_TOO_LARGE. Default [DefaultMaxParquetPageBytes].
	MaxParquetPageBytes int64 `json:"maxParquetPageBytes,omitempty"`
	// MaxParquetMemory refuses a Parquet row group whose open pages (one
	// of each column, with its dictionary) need more memory together, and
	// a footer that does: X_PARQUET_TOO_LARGE. Default
	// [DefaultMaxParquetMemory].
	MaxParquetMemory int64 `json:"maxParquetMemory,omitempty"`
}

// defaulted fills the zero fields with the defaults.
func (d DecodeLimits) defaulted() DecodeLimits {
	return d.under(DecodeLimits{MaxRatio: DefaultMaxRatio, MaxWindowBytes: DefaultMaxWindowBytes,
		MaxParquetPageBytes: DefaultMaxParquetPageBytes, MaxParquetMemory: DefaultMaxParquetMemory})
}

// over answers d with x's non-zero fields in their place.
func (d DecodeLimits) over(x DecodeLimits) DecodeLimits {
	return x.under(d)
}

// under answers d with its zero fields taken from base.
func (d DecodeLimits) under(base DecodeLimits) DecodeLimits {
	pick := func(v, b int64) int64 {
		if v != 0 {
			return v
		}
		return b
	}
	return DecodeLimits{
		MaxRatio:            pick(d.MaxRatio, base.MaxRatio),
		MaxDecodedBytes:     pick(d.MaxDecodedBytes, base.MaxDecodedBytes),
		MaxWindowBytes:      pick(d.MaxWindowBytes, base.MaxWindowBytes),
		MaxParquetPageBytes: pick(d.MaxParquetPageBytes, base.MaxParquetPageBytes),
		MaxParquetMemory:    pick(d.MaxParquetMemory, base.MaxParquetMemory),
	}
}

// faults names each limit out of range.
func (d DecodeLimits) faults() []string {
	var out []string
	if d.MaxRatio < 0 || d.MaxDecodedBytes < 0 || d.MaxParquetPageBytes < 0 || d.MaxParquetMemory < 0 {
		out = append(out, "a decoding limit is negative")
	}
	if d.MaxWindowBytes != 0 && (d.MaxWindowBytes < 1<<10 || d.MaxWindowBytes > blob.MaxWindowLimit) {
		out = append(out, "MaxWindowBytes is outside 1 KiB to 2 GiB")
	}
	return out
}

// Check refuses a limit out of range with X_JOB_INPUT_INVALID.
func (d DecodeLimits) Check() error {
	if f := d.faults(); len(f) > 0 {
		return errcode.New(errcode.JobInputInvalid, "import: %s", strings.Join(f, "; ")).
			WithFix("decoding limits are not negative, and the window is between 1 KiB and 2 GiB")
	}
	return nil
}

// blob answers the limits of a compressed text file's stream.
func (d DecodeLimits) blob() blob.DecompressLimits {
	return blob.DecompressLimits{MaxWindow: d.MaxWindowBytes, MaxRatio: d.MaxRatio, MaxBytes: d.MaxDecodedBytes}
}

// parquet answers the limits of a Parquet file's reading.
func (d DecodeLimits) parquet() pqread.Limits {
	return pqread.Limits{MaxPageBytes: d.MaxParquetPageBytes, MaxMemory: d.MaxParquetMemory,
		MaxWindow: d.MaxWindowBytes, MaxRatio: d.MaxRatio, MaxDecodedBytes: d.MaxDecodedBytes}
}
