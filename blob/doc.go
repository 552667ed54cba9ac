// Package blob reads and writes objects in object storage (S3 and
// S3-compatible stores, Google Cloud Storage, Azure Blob Storage), in local
// directories and in memory, through gocloud.dev/blob, and adapts the
// streams: compression and text encodings.
//
// # Buckets and URLs
//
// [Open] takes a bucket URL: file:///dir or a plain local path (created if
// missing), mem://name, s3://bucket, gs://bucket or azblob://container.
// Query parameters go to the gocloud.dev driver. An S3-compatible store
// (MinIO, R2, Ceph) takes its endpoint in the URL:
//
//	s3://bucket?endpoint=https://minio:9000&use_path_style=true&region=us-east-1
//
// Some such stores also need request_checksum_calculation=when_required or
// response_checksum_validation=when_required. Credentials are never in the
// URL; each driver reads them from the environment (for S3,
// AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a profile). [SplitURL]
// splits an object URL into the bucket URL and the key.
//
// mem://name buckets are shared by name for the life of the process, for
// tests and examples.
//
// # Keys
//
// Keys are "/"-separated and validated by [ValidateKey] before any I/O: no
// "..", ".", or empty segment, no leading or trailing "/", no backslash or
// control character, valid UTF-8, at most 1024 bytes. A key built from
// user input is joined with [JoinKey], which validates too. So a key can
// neither climb out of a file bucket's directory nor name one object two
// ways.
//
// # Atomic writes
//
// [Bucket.Write] hands a writer to a function; the object appears only if
// the function returns nil and the upload completes. A failure, a panic or
// a cancelled context leaves nothing behind, and an object already at the
// key is untouched. File buckets write a temporary file beside the object
// and rename it into place (List hides the temporary file, and keys shaped
// like one are refused); S3, GCS and Azure complete an upload in one step.
// File buckets keep no metadata: Attrs.ContentType and Attrs.MD5 are empty.
//
// # Errors
//
// Driver errors are coded once, at the boundary: a missing object is
// X_BLOB_NOT_FOUND (naming the key), refused credentials
// X_BLOB_PERMISSION_DENIED (terminal), any other store failure
// X_BLOB_UNAVAILABLE, which is retryable; the driver's error stays
// reachable through errors.Is and errors.As. A file bucket's disk is
// coded by what a retry can do: a full disk or quota (ENOSPC, EDQUOT) is
// X_DISK_FULL, retried after a pause; a directory that refuses writes
// (EACCES, EPERM, EROFS) is X_BLOB_PERMISSION_DENIED — from the writer's
// Write as well as from Write's answer. A refused key is
// X_BLOB_KEY_INVALID and a refused URL X_BLOB_URL_INVALID. No message
// quotes object contents, and a key is named only once it passed
// validation.
//
// # Compression and encodings
//
// [Decompress] reads gzip or zstd, detecting either from the magic bytes
// with [CompressionAuto]; [Compress] writes them. [Decode] turns UTF-16,
// Latin-1 and Windows-1252 into UTF-8, failing on invalid UTF-16 rather
// than replacing it; UTF-8 passes through untouched, a byte order mark
// included. Corrupt data is X_COMPRESSION_INVALID or X_ENCODING_INVALID
// from Read; the source's own errors pass through unchanged.
//
// A decoder's memory is bounded whatever the input: gzip keeps a 32 KiB
// window, and zstd a window of at most [DefaultMaxWindow] (8 MiB); a frame
// asking for more is X_COMPRESSION_WINDOW_TOO_LARGE, from its header,
// before anything is decoded. [DecompressLimited] sets the window limit
// (up to 2 GiB, zstd --long=31) and refuses output past a ratio to the
// compressed bytes read or past a size, X_DECOMPRESSED_TOO_LARGE, so that
// a bomb is refused in its first MiBs.
package blob
