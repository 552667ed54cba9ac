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
// it spans, never by the file (though a damaged page header can make
// parquet-go allocate the page size it claims, up to 2 GiB, before the read
// fails). A Value's Text is valid until the callback returns.
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
// for a file that is not Parquet or is corrupt. They name fields, row groups
// and rows, never data. An error of the underlying reader (the object store)
// is returned wrapped as it is, so that its retry classification holds.
package pqread
