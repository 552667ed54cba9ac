//go:build !pipe_no_s3

package blob

import _ "gocloud.dev/blob/s3blob" // registers s3://

func init() { linked["s3"] = true }
