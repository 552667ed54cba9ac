// Package split finds the records of a CSV or NDJSON page and the fields of a
// CSV record, on bytes, without allocating in the loop.
//
// # Records
//
// A [Splitter] walks a page of a file and hands each whole record to a
// callback with its byte offset in the file and the line it starts on. A
// record ends at a '\n' outside quotes; its "\n" or "\r\n" is stripped. In a
// file whose lines end with a bare '\r' (classic Mac; [Splitter.Detect] tells
// from the first line, as COPY does, and [Splitter.End] says CR) a record
// ends at a '\r' outside quotes instead. Blank lines are skipped but counted,
// and a UTF-8 byte order mark at offset 0 reads as nothing. Only bytes up to
// the last record end are consumed, so a page may end anywhere — inside a
// quoted field, a "\r\n" or a multibyte character — and the next page starts
// again at the first record not consumed:
//
//	consumed, lines, err := s.Scan(page, off, line, atEOF, fn)
//	off, line = off+int64(consumed), line+lines
//
// The splitter keeps the positions of the next line end and the next quote
// (each found with [bytes.IndexByte]) and rescans only the one it passed;
// inside quotes it jumps from quote to quote. A stretch without quotes
// therefore costs one IndexByte per record.
//
// # Fields
//
// A [FieldParser] splits one record into fields, removing the quotes of a
// quoted field and collapsing its doubled quotes. [Field.Quoted] tells an
// empty unquoted field (NULL to an importer) from "" (an empty string). In a
// file of bare-'\r' lines ([FieldParser.End] CR), a '\n' outside quotes
// refuses its record, where COPY fails the whole file.
//
// # Errors
//
// Errors are [errcode.Error] values with code X_IMPORT_RECORD_TOO_LARGE or
// X_IMPORT_RECORD_INVALID. They name byte offsets, lines and field positions,
// never the data, which may be personal.
package split
