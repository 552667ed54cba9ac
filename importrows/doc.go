// Package importrows imports files — CSV, NDJSON and Parquet, plain, gzip
// or zstd, UTF-8, UTF-16 or Latin-1 — from object storage into PostgreSQL,
// as a durable job.
//
// [New] declares an import: a [pipeline.Job] whose runs read the file their
// input names a page at a time (Options.PageBytes, 8 MiB). Each page is one
// step whose checkpoint is the byte offset after its last whole record; a
// killed run resumes there, and the bytes after the last whole record are
// read again by the next page.
//
// Rows go to a table (Options.Into: COPY, and an upsert on the key, with
// the page and its checkpoint committed in one transaction, so each page
// lands exactly once) or to the app's Options.Handle in batches (at least
// once per page). Values are coerced to the columns' types as an HTML form
// would be; into a table, a value that coercion cannot read is asked of the
// server's input function for its column type (once per page, for all such
// values, under Source.Settings), so an import takes what COPY takes. A
// refused row is reported as {line, byteOffset, field, code} in
// <prefix>/<runId>/errors-NNNNN.ndjson — never with its value. Past
// Options.MaxRowErrors the run fails with X_IMPORT_TOO_MANY_ERRORS.
//
// [TableJob] is the stock job pipe.import behind `pipe import`: its input
// names the file's URL, the table and every option, and its idempotency key
// digests them, so an import of the same file into the same table with
// other options is a run of its own, never merged into a live one.
//
// No error quotes the file or a row: a row the table refuses (a
// constraint, a value its type refuses, a trigger's RAISE, a deferred
// constraint checked before the page commits) is X_IMPORT_WRITE_REFUSED
// named by SQLSTATE, table and constraint; any other server failure is
// coded by errcode.Redact; a header's unknown names are given by their
// position (a file without a header has its first row read as one). A
// table, schema, key or column name over PostgreSQL's 63 bytes is
// X_IMPORT_TABLE_INVALID, and limits out of their ranges (PageBytes 64 KiB
// to 1 GiB, MaxRecordBytes at most 64 MiB) X_JOB_INPUT_INVALID, before
// anything is read.
//
// With Options.Parallel over 1 (declared by [NewJobs], whose range job a
// worker registers beside the import), a large plain-text or Parquet file
// is cut into ranges at record starts found by the splitter itself, and
// each range is a child run of its own; the parent waits for them and
// answers one result equal to the sequential import's, the last
// occurrence of a key winning through per-range staging tables merged in
// file order (see parallel.go).
//
// Memory is a page, not the file — less, in fact: a page is read and
// scanned in 1 MiB chunks, into one buffer that lives outside the Go heap
// and is reused by every page of an attempt.
//
// Whatever the file claims, decoding it is bounded by Options.Decoding
// ([DecodeLimits]): a compressed file may inflate to 200 times its size
// and no further (X_DECOMPRESSED_TOO_LARGE; a bomb, a thousandfold and
// more, within its first MiB, before its first page is written), a zstd
// window may be 8 MiB (X_COMPRESSION_WINDOW_TOO_LARGE, from its header), a
// Parquet page may need 32 MiB and a row group's open pages 256 MiB
// (X_PARQUET_TOO_LARGE, from the page's header). Each is checked before
// what it bounds is allocated, and each refusal is terminal: the run fails
// at the first attempt that meets it.
package importrows
