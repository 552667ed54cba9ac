package exportrows

// SinkOf answers the sink a destination names, as `pipe export --to`
// reads it: s3://bucket/prefix (and gs://, azblob://, mem://) is the
// bucket and the key prefix; a file:// URL or a local path is the bucket
// itself, with no prefix. A destination that does not parse is
// X_BLOB_URL_INVALID.
func SinkOf(to string) (Sink, error) {
	bucket, prefix, err := splitTo(to)
	return Sink{Bucket: bucket, Prefix: prefix}, err
}
