package blob

import "github.com/pipekit/pipe/errcode"

// The bounds of [DecompressLimits].
const (
	// DefaultMaxWindow is the largest zstd window read by default: 8 MiB,
	// what RFC 8878 asks every decoder to support and what zstd's levels
	// 1 to 19 write. zstd --long (128 MiB) and --ultra levels need more.
	DefaultMaxWindow = 8 << 20
	// MaxWindowLimit is the largest window a limit may allow: 2 GiB,
	// zstd --long=31.
	MaxWindowLimit = 2 << 30
	// ratioGrace is how much a stream may inflate before MaxRatio applies,
	// so that a tiny compressed file is not refused for its header's sake.
	ratioGrace = 1 << 20
)

// DecompressLimits bound what [DecompressLimited] may take. Every zero
// field takes its default.
type DecompressLimits struct {
	// MaxWindow refuses a zstd frame whose window, the history its decoder
	// keeps in memory, is larger: X_COMPRESSION_WINDOW_TOO_LARGE. Default
	// [DefaultMaxWindow]; at most [MaxWindowLimit]. gzip's window is 32
	// KiB by its format.
	MaxWindow int64
	// MaxRatio refuses a stream once its decompressed bytes pass MaxRatio
	// times the compressed bytes read so far (after a first MiB):
	// X_DECOMPRESSED_TOO_LARGE. A bomb is refused in its first MiBs, not at
	// its end. Default none.
	MaxRatio int64
	// MaxBytes refuses a stream once its decompressed bytes pass MaxBytes:
	// X_DECOMPRESSED_TOO_LARGE. Default none.
	MaxBytes int64
}

// window answers the window limit, its default applied.
func (l DecompressLimits) window() int64 {
	if l.MaxWindow == 0 {
		return DefaultMaxWindow
	}
	return l.MaxWindow
}

// Check refuses a negative limit, or a window below 1 KiB (zstd's
// smallest) or above [MaxWindowLimit], with X_CONFIG_INVALID.
func (l DecompressLimits) Check() error {
	w := l.window()
	if w < 1<<10 || w > MaxWindowLimit || l.MaxRatio < 0 || l.MaxBytes < 0 {
		return errcode.New(errcode.ConfigInvalid, "a decompression limit is out of range").
			WithFix("limits are not negative, and the window is between 1 KiB and 2 GiB")
	}
	return nil
}

// allows reports whether out decompressed bytes from in compressed ones
// are within the ratio and byte limits.
func (l DecompressLimits) allows(in, out int64) bool {
	if l.MaxBytes > 0 && out > l.MaxBytes {
		return false
	}
	if l.MaxRatio > 0 && out > ratioGrace && out/l.MaxRatio > in {
		return false
	}
	return true
}
