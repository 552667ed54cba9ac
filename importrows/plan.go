package importrows

import (
	"bytes"
	"context"
	"path"
	"strings"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/errcode"
)

// plan is what a run settles before its first page, stored as the "plan"
// step so that every attempt reads the file the same way: the file's
// version, how to read it, the columns in the file's order with their
// types, and where the first data record begins.
type plan struct {
	Format      Format `json:"format"`
	Stream      bool   `json:"stream,omitempty"` // read from the start: compressed or re-encoded
	Compression string `json:"compression"`
	Encoding    string `json:"encoding"`
	Delimiter   string `json:"delimiter,omitempty"`
	Lenient     bool   `json:"lenient,omitempty"` // CSV quotes read leniently
	// LineEnd is how the CSV file's records end, told by its first line:
	// "cr" for a bare CR, "" for LF or CRLF (see line_end.go).
	LineEnd string `json:"lineEnd,omitempty"`
	// Settings are the run's: the declared over the database's defaults.
	Settings Settings `json:"settings"`
	Size     int64    `json:"size"`
	ETag     string   `json:"etag,omitempty"`
	// Columns are in the file's order (the CSV header's), with their types
	// and whether a NULL is refused.
	Columns  []string `json:"columns"`
	Types    []string `json:"types"`
	Required []bool   `json:"required"`
	// Arrays marks the table's columns whose values are arrays to the
	// server though pipe does not read their type: a domain over an array.
	// A JSON array for one is asked of the server as a {...} literal.
	Arrays []bool `json:"arrays,omitempty"`
	// Bases are the base types of the table's domain columns ("" for
	// another column). A domain over a character type with a length is
	// checked against its base by pipe before its value is asked of the
	// server: the server reads the value with a cast, and a cast to
	// varchar(n) cuts a too-long value where COPY refuses it.
	Bases []string `json:"bases,omitempty"`
	// Start and Line are the offset and line number of the first record
	// after the header; for Parquet, Start is the first row group.
	Start     int64    `json:"start"`
	Line      int64    `json:"line"`
	RowGroups int      `json:"rowGroups,omitempty"`
	Table     string   `json:"table,omitempty"`
	Key       []string `json:"key,omitempty"`
}

// formatOf answers the declared format, or the one the key's extension names.
func formatOf(s Source) (Format, error) {
	if s.Format != "" {
		switch s.Format {
		case CSV, NDJSON, Parquet:
			return s.Format, nil
		}
		return "", errcode.New(errcode.JobInputInvalid, "import: unknown format %q", string(s.Format)).
			WithFix("use csv, ndjson or parquet")
	}
	ext := path.Ext(strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(s.Key, ".gz"), ".zst"), ".gzip"))
	switch strings.ToLower(ext) {
	case ".csv", ".tsv", ".txt":
		return CSV, nil
	case ".ndjson", ".jsonl", ".json":
		return NDJSON, nil
	case ".parquet", ".pq":
		return Parquet, nil
	}
	return "", errcode.New(errcode.JobInputInvalid, "import: the format cannot be told from the file's name").
		WithFix("name the format: csv, ndjson or parquet")
}

// delimiterOf answers the CSV delimiter: declared, tab for .tsv, else comma.
func delimiterOf(s Source) (byte, error) {
	d := s.Delimiter
	if d == 0 {
		if strings.Contains(strings.ToLower(s.Key), ".tsv") {
			return '\t', nil
		}
		return ',', nil
	}
	if d >= 0x80 || d == '"' || d == '\n' || d == '\r' {
		return 0, errcode.New(errcode.JobInputInvalid, "import: the delimiter must be one ASCII character other than a quote or a line end").
			WithFix("use ',', ';', '|' or a tab")
	}
	return byte(d), nil
}

// lenientOf answers whether CSV quotes are read leniently.
func lenientOf(s Source) (bool, error) {
	switch s.Quotes {
	case "", QuotesStrict:
		return false, nil
	case QuotesLenient:
		return true, nil
	}
	return false, errcode.New(errcode.JobInputInvalid, "import: quotes is neither strict nor lenient").
		WithFix("use strict (the default) or lenient")
}

// sniff answers how the text file must be read: by ranges (plain UTF-8) or
// as a stream (compressed, or another encoding), and the compression found.
func sniff(ctx context.Context, b *blob.Bucket, key string, src Source, size int64) (stream bool, comp blob.Compression, enc blob.Encoding, err error) {
	if comp, err = blob.ParseCompression(src.Compression); err != nil {
		return
	}
	if enc, err = blob.ParseEncoding(src.Encoding); err != nil {
		return
	}
	head, err := readHead(ctx, b, key, size)
	if err != nil {
		return
	}
	if comp == blob.CompressionAuto {
		comp = detectCompression(head)
	}
	if enc == blob.EncodingUTF8 && comp == blob.CompressionNone {
		if d := blob.DetectEncoding(head); d != "" && d != blob.EncodingUTF8 {
			enc = d // a UTF-16 BOM: the file says what it is
		}
	}
	return comp != blob.CompressionNone || enc != blob.EncodingUTF8, comp, enc, nil
}

func readHead(ctx context.Context, b *blob.Bucket, key string, size int64) ([]byte, error) {
	n := min(size, 4)
	if n == 0 {
		return nil, nil
	}
	r, err := b.NewRangeReader(ctx, key, 0, n)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var buf bytes.Buffer
	_, err = buf.ReadFrom(r)
	return buf.Bytes(), err
}

// detectCompression reads the magic bytes: gzip 1f 8b, zstd 28 b5 2f fd.
func detectCompression(head []byte) blob.Compression {
	switch {
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		return blob.CompressionGzip
	case bytes.HasPrefix(head, []byte{0x28, 0xb5, 0x2f, 0xfd}):
		return blob.CompressionZstd
	}
	return blob.CompressionNone
}
