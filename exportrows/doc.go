// Package exportrows exports a table, or a query, to object storage as
// CSV, NDJSON or Parquet files: a bulk export is a job.
//
// [New] declares the export and answers a [pipeline.Job] like any other:
// enqueue it in the caller's transaction, let it retry, dead-letter it, see
// it in `pipe jobs show`. Each run reads the [Source] its input names and
// writes to the [Sink] its input names. [TableJob] is the stock job, named
// pipe.export, that `pipe export` enqueues.
//
//	var exportOrders = exportrows.MustNew(func(in OrgExport) string { return in.OrgID + "/" + in.Day }, // idempotency key
//		exportrows.Options[OrgExport]{
//			Name: "orders.export",
//			Source: func(in OrgExport) exportrows.Source {
//				return exportrows.Source{Table: pg.Relation{Name: "orders"}, Where: "org_id = $1", Args: []any{in.OrgID}}
//			},
//			Sink: func(in OrgExport) exportrows.Sink {
//				return exportrows.Sink{Bucket: "s3://exports", Prefix: in.OrgID}
//			},
//			Format: exportrows.Parquet,
//			Sealed: []string{"card_token"},
//			Job:    pipeline.JobOptions[OrgExport, exportrows.Result]{Tenant: func(in OrgExport) string { return in.OrgID }},
//		})
//
//	res, err := exportOrders.Enqueue(ctx, tx, OrgExport{OrgID: org, Day: day}) // commits with tx
//
// # Pages
//
// A run reads its source in keyset pages, never with OFFSET. Each page is
// one step: it reads PageRows rows after the last key, in key order, writes
// them as one object and checkpoints the key of its last row and the
// counts so far — never the rows. A killed run resumes at the page it
// stopped on; a page read again writes the same key again, so a replay
// leaves no duplicate. The ordering key is the table's primary key unless
// the source declares one (a query must); a composite key pages by row
// comparison, (a, b) > ($1, $2). A table without a primary key and without
// a declared key is refused with X_EXPORT_KEY_INVALID, as is a declared key
// of a table that is nullable or that no unique index lies within. A query's
// key is trusted to be unique; a NULL met in it is refused. The checkpoint
// keeps the key's values as text (in the journal: so a sealed column cannot
// be the key).
//
// Each page reads under its own snapshot: the export is not a snapshot of
// the whole source. A row that changes behind the cursor is not read again;
// a row inserted ahead of it is read.
//
// # Snapshot order
//
// A table or materialized view can instead be read in storage order
// (Source.Order = [Snapshot]): each page reads a range of blocks holding
// about PageRows rows, by a TID range scan, and every page of an attempt
// reads in one REPEATABLE READ, read-only transaction that the attempt
// holds on a connection of its own ([pipeline.Pool]) from its first page to
// its last. The export is then one point in time, as pg_dump's is, and
// reads at the speed of a sequential scan, where keyset pages by a random
// key (a UUID) read the heap in random order. No key is needed: a table
// without one exports. A query, a declared key and a view are refused. The
// checkpoint keeps the next block. A run resumed after a crash reads its
// remaining pages in a new snapshot: a row moved to another block between
// the two (a non-HOT update) can then be exported twice or not at all, and
// the manifest's Snapshots counts the snapshots the parts were read in.
//
// # Parallel exports
//
// A run whose input asks for Parallel N (Options.Parallel, with WithRange
// and RangeOf carrying a child's [Range] in the job's own input) is a
// parent: it samples the key (TABLESAMPLE SYSTEM, ordered by the key
// itself) for N-1 bounds, exports a snapshot with pg_export_snapshot() in
// a REPEATABLE READ, read-only transaction on a connection of its own, and
// in one step enqueues one child run of the same job per key range. Each
// child reads its range's keyset pages after SET TRANSACTION SNAPSHOT, on a
// held connection ([pipeline.Hold]), into part-RRRRR-NNNNN objects in the
// parent's directory; the parent waits holding the snapshot, then writes
// one manifest of every part in key order (Ranges, Snapshots 1). The union
// of the parts is what one run in key order writes, as of the snapshot. A
// snapshot lost — the parent's connection ended, it outlived
// SnapshotLifetime, or the parent resumed after a crash with ranges still
// to read — fails the export with X_EXPORT_SNAPSHOT_LOST, terminal. A
// query, a snapshot-order export and a replica are refused.
//
// # Reading on a replica
//
// With Options.Replica, a pool on a hot standby of the job's database,
// the rows are read there — a keyset page in a read-only transaction of
// its own, a snapshot export's snapshot on a connection of the replica's
// pool — while the plan, the checkpoints and the run stay on the job's
// database. The standby serves what it has replayed: a snapshot export
// read there is one point in time of the standby, as of its replay
// position when the snapshot began, which can be behind the primary. A
// read recovery cancels (SQLSTATE 40001, a conflict with recovery past
// max_standby_streaming_delay) fails the attempt with the retryable
// X_REPLICA_CONFLICT, whose fix names hot_standby_feedback.
//
// # Objects and the manifest
//
// A run writes <prefix>/<runId>/part-NNNNN.<ext> — .csv, .ndjson (each
// followed by .gz or .zst when compressed) or .parquet — each object
// written atomically, then <prefix>/<runId>/manifest.json, last. The
// [Manifest] names the table or query, the columns and their types, the
// key, the format and compression, every part with its row count, byte
// size and SHA-256, the total rows, and when the run started and completed
// (the database clock). An empty source writes a manifest with no part.
//
// A directory without manifest.json is not a complete export — the run is
// still going, or failed — and must not be read as one. Readers start
// from the manifest ([ReadManifest]), read the parts it names in its order
// and may check each against its size and checksum.
//
// # CSV
//
// RFC 4180: a header row of the column names, a field quoted when it holds
// a comma, a quote, a line break, nothing, or exactly \., quotes doubled;
// records end with \n. A NULL is an empty unquoted field and an empty
// string is "" — exactly how pipe's importer and PostgreSQL's COPY (FORMAT
// csv) read them back.
//
// Formula guard: a cell of free text — a text, varchar, char or name
// column, or a type pipe does not know (an enum, citext; a domain counts
// as its base type) — that begins with =, +, -, @, a tab or a carriage return is
// written with a leading ', so that a spreadsheet shows it rather than runs
// it. Numbers, booleans, dates and times, intervals, uuids, json, bytea and
// arrays are never guarded: their text starts a formula only as a negative
// number, which every spreadsheet reads as the number it is, and guarding
// it would make the file unimportable as numbers. An import cannot tell a
// guard from data, so pipe's importer keeps the '.
//
// Values: timestamptz in RFC 3339 UTC (2024-01-02T03:04:05.123456Z, the
// fraction without trailing zeros), timestamp the same without offset, date
// as YYYY-MM-DD (a BC year as PostgreSQL writes it, with " BC"), boolean as
// true/false, floats as the shortest text that reads back exactly (NaN,
// Infinity, -Infinity), numeric exactly as PostgreSQL prints it, bytea in
// PostgreSQL's hex form (\x0aff), arrays as PostgreSQL array literals, and
// any other type as its text.
//
// # NDJSON
//
// One JSON object per row, keys in column order, each line ended by \n.
// smallint, integer and bigint are JSON numbers: bigint always, with its
// exact digits — a JavaScript reader needs a big-number parser for values
// beyond 2^53, but every row of a column has the same JSON type. numeric is
// a string ("12.50"): a float would lose digits and the scale. real and
// double precision are numbers, NaN and the infinities strings ("NaN",
// "Infinity", "-Infinity"). boolean is true/false; json and jsonb are
// embedded as JSON (json compacted: its line breaks go); bytea is a
// string in the hex form ("\\x0aff"); uuid, dates and timestamps are
// strings as in CSV; one-dimensional arrays are JSON arrays of their
// elements by the same rules; any other type is its text as a string. NULL
// is null.
//
// # Parquet
//
// Written with parquet-go: one optional field per column, in column order.
// smallint, integer and bigint are INT32 (INT(16)), INT32 and INT64; real
// and double precision FLOAT and DOUBLE; boolean BOOLEAN; numeric(p,s) with
// p ≤ 38 and 0 ≤ s ≤ p is DECIMAL(p,s) over INT32 (p ≤ 9), INT64 (p ≤ 18)
// or a 16-byte FIXED_LEN_BYTE_ARRAY, and any other numeric a STRING of its
// text; text types STRING; timestamptz TIMESTAMP(MICROS, adjusted to UTC),
// timestamp TIMESTAMP(MICROS, not adjusted), date DATE; uuid a 16-byte
// FIXED_LEN_BYTE_ARRAY annotated UUID; json and jsonb JSON; bytea a plain
// BYTE_ARRAY; a one-dimensional array a LIST of optional elements; any other
// type a STRING of its text. Values Parquet cannot hold — an infinite date
// or timestamp, NaN in a DECIMAL, an array of two or more dimensions — fail
// the run with X_EXPORT_VALUE_UNSUPPORTED naming the column.
//
// Row groups hold RowGroupRows rows (default: the whole page) or end after
// 16 MiB of values; the column chunks are compressed with the export's
// Compression, zstd by default, and the file itself is not.
//
// # Compression
//
// CSV and NDJSON objects are compressed whole, as gzip or zstd
// (klauspost/compress), or not at all (the default).
//
// # Sealed columns
//
// Options.Sealed names columns that are never exported: a declaration
// asking for one is refused with X_JOB_DECLARATION_INVALID; a run asking for
// one is refused with X_EXPORT_COLUMN_SEALED; a run asking for no column in
// particular leaves them out.
//
// # Reading and memory
//
// Each page is one statement, described then run unnamed so the server
// plans it for its own key, its values read in PostgreSQL's binary form
// (text for numeric and json) and encoded by pipe as they arrive: from the
// connection into the encoder, through the compressor and the checksum into
// the bucket's writer. No page of rows is held, so memory does not grow
// with the page or the table; Parquet holds one row group, compressed. This
// measured faster than paging COPY TO STDOUT, which would also need the key
// spliced into SQL and the CSV post-processed (see BenchmarkCSVReadPath).
//
// # Errors
//
// A bad declaration is X_JOB_DECLARATION_INVALID naming every fault. At run
// time, all terminal: X_BLOB_KEY_INVALID for a prefix that could leave its
// bucket (before anything is written); X_EXPORT_SOURCE_INVALID for a source
// that does not exist, names unknown columns, has a name over PostgreSQL's
// 63 bytes, or that the server refuses to read — at plan or on any page: a
// Where, a view's definition or a query that does not parse, fails on a
// row's value (a cast, a division by zero, a RAISE) or writes;
// X_EXPORT_KEY_INVALID; X_EXPORT_COLUMN_SEALED; X_EXPORT_VALUE_UNSUPPORTED;
// X_JOB_INPUT_INVALID for run settings out of range (PageRows and
// RowGroupRows up to MaxPageRows). Any other failure of the server is coded
// by errcode.Redact. None quotes the server's message, which can quote a
// row's value.
//
// # Read-only
//
// Every read of an export is read-only: a keyset page reads in a
// read-only savepoint of its step's transaction (which then writes the
// checkpoint), a snapshot page in its read-only snapshot, the plan's probe
// in a read-only savepoint. A Where that writes (nextval) is refused with
// X_EXPORT_SOURCE_INVALID, never committed.
//
// # Temporary files
//
// A file bucket writes each object to <key>.<hex>.tmp beside it and
// renames it; a SIGKILL mid-write leaves that file. A run sweeps its own
// directory of them when an attempt starts and before the manifest, so a
// complete export's directory holds its parts and its manifest only.
package exportrows
