package blob_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/blob/blobtest"
	"github.com/pipekit/pipe/errcode"
)

// TestErrorsAreWrapped checks that store failures carry a code and keep
// the driver's error reachable.
func TestErrorsAreWrapped(t *testing.T) {
	t.Parallel()
	b := open(t, t.TempDir())
	defer b.Close()
	blobtest.Put(t, b, "a", []byte("file"))
	err := b.WriteBytes(context.Background(), "a/b", []byte("x"), blob.WriteOptions{})
	blobtest.RequireCode(t, err, errcode.BlobUnavailable)
	var pathErr *os.PathError
	if !errors.As(err, &pathErr) || !errors.Is(err, syscall.ENOTDIR) {
		t.Fatalf("error %v does not wrap the file system's", err)
	}
	blobtest.RequireNoError(t, os.Mkdir(filepath.Join(b.URL(), "dir"), 0o755))
	_, err = b.Stat(context.Background(), "dir")
	blobtest.RequireCode(t, err, errcode.BlobNotFound)
	if !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("error %v does not wrap os.ErrNotExist", err)
	}
}

func TestWriteRefusesBadContentType(t *testing.T) {
	t.Parallel()
	b := open(t, "mem://bad-content-type")
	defer b.Close()
	err := b.WriteBytes(context.Background(), "k", nil, blob.WriteOptions{ContentType: "text/csv; ;"})
	blobtest.RequireCode(t, err, errcode.ConfigInvalid)
	blobtest.RequireAbsent(t, b, "k")
}

// TestS3ServerErrorIsUnavailable serves 500s where S3 should be: the
// failure is retryable and the HTTP response stays reachable.
func TestS3ServerErrorIsUnavailable(t *testing.T) {
	s3 := startS3(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
	}))
	defer srv.Close()
	s3.endpoint = srv.URL
	b := open(t, s3.url("down"))
	defer b.Close()
	_, err := b.Stat(context.Background(), "k")
	blobtest.RequireCode(t, err, errcode.BlobUnavailable)
	if errcode.Classify(err) != errcode.Retryable {
		t.Fatalf("class = %s, want retryable", errcode.Classify(err))
	}
	var resp interface{ HTTPStatusCode() int }
	if !errors.As(err, &resp) || resp.HTTPStatusCode() != http.StatusInternalServerError {
		t.Fatalf("error %v does not wrap the HTTP response", err)
	}
}

// TestS3AccessDeniedIsTerminal serves 403s: retrying cannot help until the
// credentials change, so the code is terminal.
func TestS3AccessDeniedIsTerminal(t *testing.T) {
	s3 := startS3(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>`))
	}))
	defer srv.Close()
	s3.endpoint = srv.URL
	b := open(t, s3.url("locked"))
	defer b.Close()
	_, err := b.NewReader(context.Background(), "k")
	blobtest.RequireCode(t, err, errcode.BlobPermissionDenied)
	if errcode.Classify(err) != errcode.Terminal {
		t.Fatalf("class = %s, want terminal", errcode.Classify(err))
	}
}
