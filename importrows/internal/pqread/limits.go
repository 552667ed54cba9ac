package pqread

import (
	"math"
	"strconv"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/errcode"
)

// The defaults of [Limits].
const (
	// DefaultMaxPageBytes is the memory one page may need by default.
	DefaultMaxPageBytes = 32 << 20
	// DefaultMaxMemory is the memory a row group's open pages may need
	// together by default.
	DefaultMaxMemory = 256 << 20
	// maxHeaderBytes is the longest page header read: real ones are a few
	// dozen bytes, a few KiB with statistics.
	maxHeaderBytes = 1 << 20
	// ratioGrace is how much a file may inflate before MaxRatio applies.
	ratioGrace = 1 << 20
)

// Limits bound the memory and the inflation a file may ask for; every zero
// field takes its default. Each is checked before anything it bounds is
// allocated: the footer before parquet-go decodes it, a page before
// parquet-go reads its header.
type Limits struct {
	// MaxPageBytes bounds the memory one page (or dictionary) needs to be
	// read: its compressed and uncompressed bytes and its decoded values
	// (a few bytes each). Default [DefaultMaxPageBytes].
	MaxPageBytes int64
	// MaxMemory bounds what a row group's reading holds at once — a page
	// and a dictionary of each column — and the decoded footer. Default
	// [DefaultMaxMemory].
	MaxMemory int64
	// MaxWindow bounds a zstd page's window. Default blob.DefaultMaxWindow.
	MaxWindow int64
	// MaxRatio refuses a file whose pages would inflate to more than
	// MaxRatio times the file's size (after a first MiB), by its footer's
	// sizes. Default none.
	MaxRatio int64
	// MaxDecodedBytes refuses a file whose pages would inflate to more
	// than this, by its footer's sizes. Default none.
	MaxDecodedBytes int64
}

func (l Limits) page() int64 {
	if l.MaxPageBytes <= 0 {
		return DefaultMaxPageBytes
	}
	return l.MaxPageBytes
}

func (l Limits) memory() int64 {
	if l.MaxMemory <= 0 {
		return DefaultMaxMemory
	}
	return l.MaxMemory
}

func (l Limits) window() int64 {
	if l.MaxWindow <= 0 {
		return blob.DefaultMaxWindow
	}
	return l.MaxWindow
}

// inflates refuses a file of size bytes whose pages declare decoded bytes
// in all, past the ratio or the byte limit.
func (l Limits) inflates(size, decoded int64) error {
	limit := l.decodedLimit(size)
	if decoded <= limit {
		return nil
	}
	return errcode.New(errcode.DecompressedTooLarge, "parquet file: its pages inflate to %s, past the limit of %s for a file of %s",
		mib(decoded), mib(limit), mib(size)).
		WithFix("check that the file is what it should be; a genuine file this compressible needs a higher limit (`pipe import --max-ratio`, `--max-decoded-bytes`)")
}

// decodedLimit answers how far a file of size bytes may inflate: MaxRatio
// times its size (at least ratioGrace) and at most MaxDecodedBytes.
func (l Limits) decodedLimit(size int64) int64 {
	limit := int64(math.MaxInt64)
	if l.MaxDecodedBytes > 0 {
		limit = l.MaxDecodedBytes
	}
	if l.MaxRatio > 0 && size < math.MaxInt64/l.MaxRatio {
		limit = min(limit, max(ratioGrace, l.MaxRatio*size))
	}
	return limit
}

// tooLarge refuses what would need need bytes of memory against limit;
// what names it ("page 3 of column 2", "the footer").
func tooLarge(what string, need, limit int64, knob string) error {
	return errcode.New(errcode.ParquetTooLarge, "parquet file: reading %s takes %s of memory, more than the limit of %s", what, mib(need), mib(limit)).
		WithFix("rewrite the file with smaller pages or row groups (or fewer columns), or raise the limit (`pipe import " + knob + "`) if the worker has the memory for it")
}

// mib renders a size in MiB to a tenth, or in bytes below one MiB.
func mib(n int64) string {
	if n < 1<<20 {
		return strconv.FormatInt(n, 10) + " bytes"
	}
	return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
}
