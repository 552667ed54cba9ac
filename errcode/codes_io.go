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
	ImportRecordInvalid Code = "X_IMPORT_RECORD_INVALID"
	ImportFieldInvalid  Code = "X_IMPORT_FIELD_INVALID"
	ImportFieldRequired Code = "X_IMPORT_FIELD_REQUIRED"
	ImportFieldUnknown  Code = "X_IMPORT_FIELD_UNKNOWN"
)

func init() {
	for _, c := range []Code{
		BlobURLInvalid, BlobKeyInvalid, BlobNotFound, BlobPermissionDenied, CompressionInvalid, EncodingInvalid,
		ImportHeaderMismatch, ImportRecordTooLarge, ImportTooManyErrors, ImportSourceChanged,
		ImportWriteRefused, ImportTableInvalid,
	} {
		Register(c, Terminal)
	}
}
