package errcode

// The codes of exports (package exportrows). All are terminal: the same
// source, read again, is refused again.
const (
	// ExportSourceInvalid: the table does not exist or cannot be read, a
	// column is unknown, or the query names a column twice.
	ExportSourceInvalid Code = "X_EXPORT_SOURCE_INVALID"
	// ExportKeyInvalid: no ordering key (a table without a primary key and
	// none declared), or a key that cannot page: not unique, nullable, an
	// array or json, or a NULL met in it.
	ExportKeyInvalid Code = "X_EXPORT_KEY_INVALID"
	// ExportColumnSealed: a sealed column was asked for.
	ExportColumnSealed Code = "X_EXPORT_COLUMN_SEALED"
	// ExportValueUnsupported: a value the format cannot hold (an infinite
	// timestamp in Parquet, a NaN in a DECIMAL, a multi-dimensional array).
	ExportValueUnsupported Code = "X_EXPORT_VALUE_UNSUPPORTED"
	// ExportSnapshotLost: a parallel export's snapshot is gone — the
	// parent's connection holding it dropped, or it outlived its bound —
	// so the ranges still to read cannot read the same point in time.
	ExportSnapshotLost Code = "X_EXPORT_SNAPSHOT_LOST"
)

func init() {
	for _, c := range []Code{ExportSourceInvalid, ExportKeyInvalid, ExportColumnSealed, ExportValueUnsupported, ExportSnapshotLost} {
		Register(c, Terminal)
	}
}
