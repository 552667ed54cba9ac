package blob

import (
	"errors"
	"strconv"
	"strings"

	"github.com/klauspost/compress/zstd"

	"github.com/pipekit/pipe/errcode"
)

// decodeFailure answers the source's own error if it failed, else codes
// err, the decoder's: a window past the limit, or corrupt data. The
// decoder's message stays out of the coded one.
func decodeFailure(src *sourceReader, err error, c Compression, lim DecompressLimits) error {
	if src.err != nil {
		return src.err
	}
	if errors.Is(err, zstd.ErrWindowSizeExceeded) || errors.Is(err, zstd.ErrDecoderSizeExceeded) {
		return windowTooLarge(err, 0, lim.window())
	}
	return errcode.Wrap(err, errcode.CompressionInvalid, "%s data is corrupt or truncated", c).
		WithFix("check that the object is whole and that the compression setting matches it")
}

// windowTooLarge refuses a zstd frame whose window (size, when known)
// passes limit.
func windowTooLarge(cause error, size, limit int64) error {
	what := "a zstd frame's window is larger than"
	if size > 0 {
		what = "the zstd window of " + mib(size) + " is larger than"
	}
	return errcode.Wrap(cause, errcode.CompressionWindowTooLarge, "%s the limit of %s", what, mib(limit)).
		WithFix("recompress without --long or --ultra (or with a window within the limit), or raise the window limit (`pipe import --max-window-bytes`) if the worker has the memory for it")
}

// tooLarge refuses a stream that inflated past lim.
func tooLarge(c Compression, lim DecompressLimits) error {
	return errcode.New(errcode.DecompressedTooLarge, "%s data inflates past its limit (%s)", c, lim.describe()).
		WithFix("check that the file is what it should be; a genuine file this compressible needs a higher limit (`pipe import --max-ratio`, `--max-decoded-bytes`)")
}

// describe names the limits in force, for a message.
func (l DecompressLimits) describe() string {
	var parts []string
	if l.MaxRatio > 0 {
		parts = append(parts, "ratio "+strconv.FormatInt(l.MaxRatio, 10)+":1")
	}
	if l.MaxBytes > 0 {
		parts = append(parts, mib(l.MaxBytes))
	}
	return strings.Join(parts, ", ")
}
