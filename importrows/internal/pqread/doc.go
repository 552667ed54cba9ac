// Package pqread reads a Parquet file as rows of text-like values, one row
// group at a time, for an importer that writes them to PostgreSQL.
//
// # Reading
//
// [Open] reads the footer only. [File.Check] refuses a schema the import
// cannot read as one column per top-level field; [File.ReadRowGroup] then
// hands each row of one row group to a callback, with one [Value] per column
// in [File.Columns] order and the row's 1-based number in the file:
//
//	f, err := pqread.Open(r, size)
//	if err == nil {
//		err = f.Check()
//	}
//	for g := 0; err == nil && g < f.RowGroups(); g++ {
//		err = f.ReadRowGroup(ctx, g, func(row int64, vals []pqread.Value) error { ... })
//	}
//
// A row group is the importer's page: it checkpoints after each one. Rows
// are read in batches of 256, so memory is bounded by a batch and the pages
// it spans, never by the file. A Value's Text is valid until the callback
// returns.
//
// # Hostile files
//
// Nothing the file claims is allocated before it is checked ([Limits];
// [OpenLimited]). parquet-go reads the file through a guard that serves it
// only bytes already checked:
//
//   - The footer is read first and walked without decoding: its length
//     must fit the file and the memory limit, and every list, map and
//     binary in it must fit the bytes left (parquet-go's decoder makes a
//     list the size its header claims: a 100-byte footer can claim 180 GB).
//     Its column chunks must lie apart, between the header and the footer.
//   - The pages the footer declares, in all, may inflate to MaxRatio times
//     the file's size and to MaxDecodedBytes (X_DECOMPRESSED_TOO_LARGE).
//   - Each page's header is walked, decoded and checked before parquet-go
//     sees it: its body within its chunk, the chunk's pages within the
//     footer's uncompressed size, the memory it needs (compressed and
//     uncompressed bytes, and a few bytes per value: a run of a few bytes
//     can hold a hundred million values) within MaxPageBytes, and the
//     pages the row group holds open — one of each column, with its
//     dictionary — within MaxMemory (X_PARQUET_TOO_LARGE).
//   - Each page's body is then decompressed into nothing, to refuse one
//     that inflates past its header's size (parquet-go's codecs grow their
//     output to fit; its LZ4 codec doubles its buffer for ever on corrupt
//     data) or a zstd window past MaxWindow (X_COMPRESSION_WINDOW_TOO_LARGE);
//     snappy's size is read from its own header. This costs a second
//     decompression of each page. The decoders' memory is bounded: zstd's
//     window by the limit, gzip's 32 KiB, brotli's at most 16 MiB (its
//     large-window extension is refused), LZ4's output one page.
//
// With the defaults a row group's reading holds at most 256 MiB of pages,
// one page at most 32 MiB.
//
// # Values
//
// Each cell becomes a [Value] of kind Null, String, Number, Bool or JSON,
// chosen by the column's physical type and its logical (or legacy converted)
// annotation:
//
//   - BOOLEAN is Bool (Text "true" or "false").
//   - INT32 and INT64, signed or unsigned, are Number in decimal.
//   - FLOAT and DOUBLE are Number in the shortest form that reads back
//     exactly; NaN, +Inf and -Inf are the Strings "NaN", "Infinity" and
//     "-Infinity". FLOAT16 reads the same way.
//   - DECIMAL(p,s) over INT32, INT64 or big-endian two's complement bytes is
//     Number with exactly s digits after the point ("-12.50").
//   - STRING, ENUM and UTF8 are String; JSON is JSON (the raw text).
//   - Bytes without an annotation, BSON, GEOMETRY and GEOGRAPHY are String in
//     PostgreSQL's bytea hex form ("\x0aff").
//   - UUID is String in canonical form (8-4-4-4-12, lowercase).
//   - DATE is String "YYYY-MM-DD"; TIME is "HH:MM:SS[.fffffffff]";
//     TIMESTAMP and the legacy INT96 are RFC 3339 with the fraction trimmed,
//     ending in "Z" when adjusted to UTC and without offset when not.
//   - INTERVAL is String in ISO 8601 ("P1M2DT3.004S").
//   - LIST of a primitive (the standard three-level layout, the legacy
//     two-level one, or a repeated primitive field) is JSON array text; MAP
//     of primitives is JSON object text with string keys. An empty list is
//     "[]", a null list Null, a null element null.
//
// # Errors
//
// Errors are [errcode.Error] values: X_IMPORT_HEADER_MISMATCH for a field
// that is not flat (a nested group, a list of groups), X_IMPORT_RECORD_INVALID
// (terminal) for a file that is not Parquet, is encrypted or is corrupt, and
// the codes of the limits above. They name fields, row groups, pages and
// rows, never data. An error of the underlying reader (the object store) is
// returned wrapped as it is, so that its retry classification holds.
package pqread
