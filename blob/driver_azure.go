//go:build !pipe_no_azure

package blob

import _ "gocloud.dev/blob/azureblob" // registers azblob://

func init() { linked["azblob"] = true }
