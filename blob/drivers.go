package blob

import "github.com/pipekit/pipe/errcode"

// linked holds the cloud stores this binary links, each registered by its
// own file: a build with the tag pipe_no_s3, pipe_no_gcs or pipe_no_azure
// leaves that store's SDK out of the binary (see docs/object-storage.md).
// file:// and mem:// are always there.
var linked = map[string]bool{}

// cloudTags names the build tag that leaves each cloud store out.
var cloudTags = map[string]string{"s3": "pipe_no_s3", "gs": "pipe_no_gcs", "azblob": "pipe_no_azure"}

// unlinked refuses a cloud store this binary was built without, naming the
// tag that left it out; nil for a store it links or a scheme it does not
// know (the driver lookup refuses those).
func unlinked(scheme string) error {
	tag, cloud := cloudTags[scheme]
	if !cloud || linked[scheme] {
		return nil
	}
	return errcode.New(errcode.BlobURLInvalid, "this pipe was built without the %s:// store (build tag %s)", scheme, tag).
		WithFix("use a pipe built without that tag: the stock build links every store")
}
