package blob_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/blob/blobtest"
)

// seq numbers the buckets tests create, so that each is fresh.
var seq atomic.Int64

func open(t *testing.T, rawURL string) *blob.Bucket {
	t.Helper()
	b, err := blob.Open(context.Background(), rawURL)
	blobtest.RequireNoError(t, err)
	return b
}

func TestFileConformance(t *testing.T) {
	blobtest.Run(t, blobtest.Backend{
		Open:       func(t *testing.T) *blob.Bucket { return open(t, "file://"+t.TempDir()) },
		NoMetadata: true,
	})
}

func TestPathConformance(t *testing.T) {
	blobtest.Run(t, blobtest.Backend{
		Open:       func(t *testing.T) *blob.Bucket { return open(t, t.TempDir()+"/new/dir") },
		NoMetadata: true,
	})
}

func TestMemConformance(t *testing.T) {
	blobtest.Run(t, blobtest.Backend{
		Open: func(t *testing.T) *blob.Bucket { return open(t, fmt.Sprintf("mem://conformance-%d", seq.Add(1))) },
	})
}

// TestS3Conformance speaks the S3 protocol to gofakes3 in process, through
// the same s3:// URL an S3-compatible store takes.
func TestS3Conformance(t *testing.T) {
	s3 := startS3(t)
	blobtest.Run(t, blobtest.Backend{
		Open: func(t *testing.T) *blob.Bucket { return open(t, s3.newBucket(t)) },
	})
}

type fakeS3 struct {
	backend  *s3mem.Backend
	endpoint string
}

// startS3 serves gofakes3 over HTTP and points the AWS SDK's environment
// credentials at it; nothing leaves the process.
func startS3(t *testing.T) *fakeS3 {
	t.Setenv("AWS_ACCESS_KEY_ID", "test-key")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test-secret")
	t.Setenv("AWS_SESSION_TOKEN", "")
	t.Setenv("AWS_PROFILE", "")
	t.Setenv("AWS_CONFIG_FILE", t.TempDir()+"/none")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", t.TempDir()+"/none")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	backend := s3mem.New()
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	t.Cleanup(srv.Close)
	return &fakeS3{backend: backend, endpoint: srv.URL}
}

// newBucket creates an empty bucket and answers its URL.
func (f *fakeS3) newBucket(t *testing.T) string {
	name := fmt.Sprintf("bucket-%d", seq.Add(1))
	blobtest.RequireNoError(t, f.backend.CreateBucket(name))
	return f.url(name)
}

// url answers the URL of bucket. gofakes3 sends the whole object's
// checksum with a ranged read, which the SDK would check against the range.
func (f *fakeS3) url(bucket string) string {
	q := url.Values{
		"endpoint": {f.endpoint}, "use_path_style": {"true"}, "region": {"us-east-1"},
		"response_checksum_validation": {"when_required"},
	}
	return "s3://" + bucket + "?" + q.Encode()
}
