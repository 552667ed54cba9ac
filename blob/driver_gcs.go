//go:build !pipe_no_gcs

package blob

import _ "gocloud.dev/blob/gcsblob" // registers gs://

func init() { linked["gs"] = true }
