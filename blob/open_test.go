package blob_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/blob/blobtest"
	"github.com/pipekit/pipe/errcode"
)

func TestOpenRefuses(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{
		"", "ftp://h/dir", "http://h/dir", "s3:bucket", "s3://", "file://tmp/dir",
		"file:///tmp?no_such_param=1", "mem://m?no_such_param=1", "s3://b?no_such_param=1",
	} {
		_, err := blob.Open(context.Background(), raw)
		blobtest.RequireCode(t, err, errcode.BlobURLInvalid)
	}
	_, err := blob.Open(context.Background(), "ftp://h/dir")
	if e, _ := errcode.As(err); !strings.Contains(e.Fix, "s3://bucket") || !strings.Contains(e.Fix, "file:///dir") {
		t.Fatalf("fix %q does not list the schemes", e.Fix)
	}
}

func TestOpenCreatesDirectory(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "a", "b")
	b := open(t, "file://"+dir)
	defer b.Close()
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Fatalf("Open did not create %s: %v", dir, err)
	}
	if b.URL() != "file://"+dir {
		t.Fatalf("URL() = %q, want the URL as opened", b.URL())
	}
}

// TestOpenRelativePath opens ./out the way a user would type it.
func TestOpenRelativePath(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	b := open(t, "./out")
	defer b.Close()
	blobtest.Put(t, b, "f.csv", []byte("x"))
	if data, err := os.ReadFile(filepath.Join(dir, "out", "f.csv")); err != nil || string(data) != "x" {
		t.Fatalf("./out/f.csv = %q, %v", data, err)
	}
	if b.URL() != "./out" {
		t.Fatalf("URL() = %q, want ./out", b.URL())
	}
}

func TestOpenURLHidesUserInfo(t *testing.T) {
	t.Parallel()
	b := open(t, "mem://user:secret@hide-user")
	defer b.Close()
	if b.URL() != "mem://hide-user" {
		t.Fatalf("URL() = %q", b.URL())
	}
}

func TestMemBucketsAreSharedByName(t *testing.T) {
	t.Parallel()
	w := open(t, "mem://shared-by-name")
	blobtest.Put(t, w, "k", []byte("v"))
	blobtest.RequireNoError(t, w.Close())
	r := open(t, "mem://shared-by-name")
	defer r.Close()
	blobtest.RequireContent(t, r, "k", []byte("v"))
	other := open(t, "mem://another-name")
	defer other.Close()
	blobtest.RequireAbsent(t, other, "k")
}

func TestSplitURLThenOpen(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	blobtest.RequireNoError(t, os.WriteFile(filepath.Join(dir, "f.csv"), []byte("a,b\n"), 0o600))
	for _, objectURL := range []string{"file://" + dir + "/f.csv", dir + "/f.csv"} {
		bucketURL, key, err := blob.SplitURL(objectURL)
		blobtest.RequireNoError(t, err)
		b := open(t, bucketURL)
		blobtest.RequireContent(t, b, key, []byte("a,b\n"))
		blobtest.RequireNoError(t, b.Close())
	}
}
