package blob_test

import (
	"context"
	"strings"
	"testing"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/errcode"
)

// A cloud store the binary was built without is refused by its URL, naming
// the build tag that left it out and not the bucket; the stock build opens
// it.
func TestAStoreLeftOutOfTheBuildIsRefusedByName(t *testing.T) {
	ctx := context.Background()
	for scheme, tag := range map[string]string{"s3": "pipe_no_s3", "gs": "pipe_no_gcs", "azblob": "pipe_no_azure"} {
		restore := blob.Unlink(scheme)
		_, err := blob.Open(ctx, scheme+"://private-bucket-name")
		restore()
		e, ok := errcode.As(err)
		if !ok || e.Code != errcode.BlobURLInvalid || !strings.Contains(e.Message, tag) || strings.Contains(e.Error(), "private-bucket-name") {
			t.Errorf("%s:// left out: %v", scheme, err)
		}
	}
	_, err := blob.Open(ctx, "s3://private-bucket-name?region=us-east-1")
	if e, ok := errcode.As(err); ok && strings.Contains(e.Message, "pipe_no_s3") {
		t.Fatalf("the stock build refused s3:// as left out: %v", err)
	}
}
