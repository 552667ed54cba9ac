package errcode

// The codes of object storage, imports and exports.
const (
	BlobURLInvalid       Code = "X_BLOB_URL_INVALID"
	BlobKeyInvalid       Code = "X_BLOB_KEY_INVALID"
	BlobNotFound         Code = "X_BLOB_NOT_FOUND"
	BlobUnavailable      Code = "X_BLOB_UNAVAILABLE"
	BlobPermissionDenied Code = "X_BLOB_PERMISSION_DENIED"
	CompressionInvalid   Code = "X_COMPRESSION_INVALID"
	EncodingInvalid      Code = "X_ENCODING_INVALID"
	ImportHeaderMismatch Code = "X_IMPORT_HEADER_MISMATCH"
	ImportRecordTooLarge Code = "X_IMPORT_RECORD_TOO_LARGE"
	ImportTooManyErrors  Code = "X_IMPORT_TOO_MANY_ERRORS"
	ImportSourceChanged  Code = "X_IMPORT_SOURCE_CHANGED"
	ImportWriteRefused   Code = "X_IMPORT_WRITE_REFUSED"
	ImportTableInvalid   Code = "X_IMPORT_TABLE_INVALID"
	// The codes of one refused row in an import's error report.
	// X_IMPORT_RECORD_INVALID is also a run's failure when a Parquet file
	// is damaged; it is terminal, as the same bytes are damaged again.
	ImportRecordInvalid Code = "X_IMPORT_RECORD_INVALID"
	ImportFieldInvalid  Code = "X_IMPORT_FIELD_INVALID"
	ImportFieldRequired Code = "X_IMPORT_FIELD_REQUIRED"
	ImportFieldUnknown  Code = "X_IMPORT_FIELD_UNKNOWN"
)

// The codes of input that would take more than its limits allow, and of a
// local disk that refuses a write.
const (
	// CompressionWindowTooLarge: a zstd frame asks for a window (the
	// history its decoder must keep in memory) larger than the limit.
	// Terminal.
	CompressionWindowTooLarge Code = "X_COMPRESSION_WINDOW_TOO_LARGE"
	// DecompressedTooLarge: compressed data inflates past its limit, a
	// ratio to the compressed bytes or an absolute size. Terminal.
	DecompressedTooLarge Code = "X_DECOMPRESSED_TOO_LARGE"
	// ParquetTooLarge: a Parquet page, the pages a row group holds open at
	// once, or the footer would need more memory than the limit. Terminal.
	ParquetTooLarge Code = "X_PARQUET_TOO_LARGE"
	// DiskFull: a local file system is out of space or over its quota
	// (ENOSPC, EDQUOT). Retry-after: space may be freed.
	DiskFull Code = "X_DISK_FULL"
	// TempDirUnwritable: the temporary directory refuses pipe's files
	// (permission denied, a read-only file system). Terminal.
	TempDirUnwritable Code = "X_TEMP_DIR_UNWRITABLE"
)

// DiskFullRetryAfter is how long a run waits after a full disk, in seconds.
const DiskFullRetryAfter = 60

func init() {
	for _, c := range []Code{
		BlobURLInvalid, BlobKeyInvalid, BlobNotFound, BlobPermissionDenied, CompressionInvalid, EncodingInvalid,
		ImportHeaderMismatch, ImportRecordTooLarge, ImportTooManyErrors, ImportSourceChanged,
		ImportWriteRefused, ImportTableInvalid, ImportRecordInvalid,
		CompressionWindowTooLarge, DecompressedTooLarge, ParquetTooLarge, TempDirUnwritable,
	} {
		Register(c, Terminal)
	}
	Register(DiskFull, RetryAfter)
}
