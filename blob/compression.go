package blob

import (
	"path"
	"strings"

	"github.com/pipekit/pipe/errcode"
)

// Compression names a stream compression.
type Compression string

// The compressions. The zero value means [CompressionAuto].
const (
	// CompressionAuto detects gzip or zstd from the stream's first bytes
	// when reading; it cannot be written.
	CompressionAuto Compression = "auto"
	CompressionNone Compression = "none"
	CompressionGzip Compression = "gzip"
	CompressionZstd Compression = "zstd"
)

// ParseCompression parses "auto" (or ""), "none", "gzip" or "zstd", in any
// case; anything else is X_COMPRESSION_INVALID.
func ParseCompression(s string) (Compression, error) {
	switch c := Compression(strings.ToLower(strings.TrimSpace(s))); c {
	case "", CompressionAuto:
		return CompressionAuto, nil
	case CompressionNone, CompressionGzip, CompressionZstd:
		return c, nil
	}
	return "", errcode.New(errcode.CompressionInvalid, "compression is not supported").
		WithFix("use auto, none, gzip or zstd")
}

// Ext answers the file extension of c: ".gz", ".zst", or "" for the rest.
func (c Compression) Ext() string {
	switch c {
	case CompressionGzip:
		return ".gz"
	case CompressionZstd:
		return ".zst"
	}
	return ""
}

// CompressionFromKey guesses the compression from key's extension: .gz or
// .gzip is gzip, .zst or .zstd is zstd, anything else none.
func CompressionFromKey(key string) Compression {
	switch strings.ToLower(path.Ext(key)) {
	case ".gz", ".gzip":
		return CompressionGzip
	case ".zst", ".zstd":
		return CompressionZstd
	}
	return CompressionNone
}
