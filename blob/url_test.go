package blob_test

import (
	"errors"
	"testing"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/blob/blobtest"
	"github.com/pipekit/pipe/errcode"
)

func TestSplitURL(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, bucket, key string }{
		{"s3://b/dir/f.csv?region=x", "s3://b?region=x", "dir/f.csv"},
		{"s3://b/f.csv?endpoint=http%3A%2F%2Fh%3A9000&use_path_style=true", "s3://b?endpoint=http%3A%2F%2Fh%3A9000&use_path_style=true", "f.csv"},
		{"gs://b/a/b/c.parquet", "gs://b", "a/b/c.parquet"},
		{"azblob://c/x.json", "azblob://c", "x.json"},
		{"s3://b/with%20space.csv", "s3://b", "with space.csv"},
		{"file:///tmp/x/f.csv", "file:///tmp/x", "f.csv"},
		{"file:///f.csv", "file:///", "f.csv"},
		{"file://./rel/f.csv", "file://./rel", "f.csv"},
		{"FILE:///tmp/f.csv", "file:///tmp", "f.csv"},
		{"mem://name/dir/key", "mem://name", "dir/key"},
		{"/tmp/x/f.csv", "/tmp/x", "f.csv"},
		{"./f.csv", ".", "f.csv"},
		{"f.csv", ".", "f.csv"},
		{"out/f.csv", "out", "f.csv"},
	} {
		bucket, key, err := blob.SplitURL(c.in)
		blobtest.RequireNoError(t, err)
		if bucket != c.bucket || key != c.key {
			t.Errorf("SplitURL(%q) = %q, %q; want %q, %q", c.in, bucket, key, c.bucket, c.key)
		}
	}
}

func TestSplitURLRefuses(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		code errcode.Code
	}{
		{"s3://b", errcode.BlobURLInvalid},
		{"s3://b/", errcode.BlobURLInvalid},
		{"s3://b?region=x", errcode.BlobURLInvalid},
		{"file:///tmp/x/", errcode.BlobURLInvalid},
		{"/tmp/x/", errcode.BlobURLInvalid},
		{"", errcode.BlobURLInvalid},
		{"s3:///f.csv", errcode.BlobURLInvalid},
		{"s3:b/f.csv", errcode.BlobURLInvalid},
		{"ftp://h/f.csv", errcode.BlobURLInvalid},
		{"file://tmp/f.csv", errcode.BlobURLInvalid},
		{"s3://b/a#b.csv", errcode.BlobURLInvalid},
		{"s3://b/%zz", errcode.BlobURLInvalid},
		{"s3://b/a/../../etc/passwd", errcode.BlobKeyInvalid},
		{"s3://b//etc/passwd", errcode.BlobKeyInvalid},
		{"s3://b/a//b", errcode.BlobKeyInvalid},
		{"s3://b/a%00b", errcode.BlobKeyInvalid},
		{"s3://b/a%5Cb", errcode.BlobKeyInvalid},
		{"mem://m/..", errcode.BlobKeyInvalid},
		{"file:///tmp/..", errcode.BlobKeyInvalid},
		{"/tmp/..", errcode.BlobKeyInvalid},
		{"..", errcode.BlobKeyInvalid},
	} {
		_, _, err := blob.SplitURL(c.in)
		if !errors.Is(err, c.code) {
			t.Errorf("SplitURL(%q) error = %v, want %s", c.in, err, c.code)
		}
	}
}
