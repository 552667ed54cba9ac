package blobtest

import (
	"context"
	"errors"
	"io"
	"testing"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/errcode"
)

var errMidway = errors.New("fn failed midway")

// failAfter answers a write function that writes data and then fails.
func failAfter(data []byte) func(io.Writer) error {
	return func(w io.Writer) error {
		if _, err := w.Write(data); err != nil {
			return err
		}
		return errMidway
	}
}

func testAbortedWrite(t *testing.T, b *blob.Bucket, _ Backend) {
	err := b.Write(context.Background(), "a/new", blob.WriteOptions{}, failAfter(digits))
	if !errors.Is(err, errMidway) {
		t.Fatalf("Write = %v, want fn's own error", err)
	}
	RequireAbsent(t, b, "a/new")
	requireEmpty(t, b)
}

func testAbortedOverwrite(t *testing.T, b *blob.Bucket, _ Backend) {
	Put(t, b, "keep", []byte("intact"))
	err := b.Write(context.Background(), "keep", blob.WriteOptions{}, failAfter(digits))
	if !errors.Is(err, errMidway) {
		t.Fatalf("Write = %v, want fn's own error", err)
	}
	RequireContent(t, b, "keep", []byte("intact"))
}

func testCancelledWrite(t *testing.T, b *blob.Bucket, _ Backend) {
	Put(t, b, "keep", []byte("intact"))
	for _, key := range []string{"keep", "new"} {
		ctx, cancel := context.WithCancel(context.Background())
		err := b.Write(ctx, key, blob.WriteOptions{}, func(w io.Writer) error {
			if _, err := w.Write(digits); err != nil {
				return err
			}
			cancel() // the caller gives up while fn still succeeds
			return nil
		})
		RequireCode(t, err, errcode.BlobUnavailable)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Write = %v, want context.Canceled in the chain", err)
		}
	}
	RequireContent(t, b, "keep", []byte("intact"))
	RequireAbsent(t, b, "new")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	RequireCode(t, b.WriteBytes(ctx, "new", digits, blob.WriteOptions{}), errcode.BlobUnavailable)
	RequireAbsent(t, b, "new")
}

func testPanickingWrite(t *testing.T, b *blob.Bucket, _ Backend) {
	Put(t, b, "keep", []byte("intact"))
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("Write swallowed fn's panic")
			}
		}()
		_ = b.Write(context.Background(), "keep", blob.WriteOptions{}, func(w io.Writer) error {
			_, _ = w.Write(digits)
			panic("fn panicked")
		})
	}()
	RequireContent(t, b, "keep", []byte("intact"))
}

// testLargeAbortedWrite writes past one upload part (8 MiB in the AWS SDK's
// transfer manager) before failing, so that multi-part uploads are aborted
// too.
func testLargeAbortedWrite(t *testing.T, b *blob.Bucket, _ Backend) {
	Put(t, b, "keep", []byte("intact"))
	big := make([]byte, 9<<20)
	for _, key := range []string{"keep", "big"} {
		err := b.Write(context.Background(), key, blob.WriteOptions{}, failAfter(big))
		if !errors.Is(err, errMidway) {
			t.Fatalf("Write = %v, want fn's own error", err)
		}
	}
	RequireContent(t, b, "keep", []byte("intact"))
	RequireAbsent(t, b, "big")
}

func testHostileKeys(t *testing.T, b *blob.Bucket, _ Backend) {
	ctx := context.Background()
	for name, key := range HostileKeys() {
		calls := map[string]error{
			"Write":  b.WriteBytes(ctx, key, digits, blob.WriteOptions{}),
			"Delete": b.Delete(ctx, key),
		}
		_, calls["Stat"] = b.Stat(ctx, key)
		_, calls["Exists"] = b.Exists(ctx, key)
		_, calls["NewReader"] = b.NewReader(ctx, key)
		_, calls["NewRangeReader"] = b.NewRangeReader(ctx, key, 0, 1)
		_, calls["ReadAt"] = b.ReaderAt(ctx, key, 10).ReadAt(make([]byte, 1), 0)
		for call, err := range calls {
			if !errors.Is(err, errcode.BlobKeyInvalid) {
				t.Errorf("%s with the %s key: error = %v, want X_BLOB_KEY_INVALID", call, name, err)
			}
		}
	}
	requireEmpty(t, b)
}

func testClosed(t *testing.T, b *blob.Bucket, _ Backend) {
	RequireNoError(t, b.Close())
	RequireNoError(t, b.Close())
	_, err := b.Stat(context.Background(), "k")
	RequireCode(t, err, errcode.Invariant)
	_, err = b.List(context.Background(), "")
	RequireCode(t, err, errcode.Invariant)
}

func requireEmpty(t *testing.T, b *blob.Bucket) {
	t.Helper()
	objs, err := b.List(context.Background(), "")
	RequireNoError(t, err)
	if len(objs) != 0 {
		t.Fatalf("bucket holds %d objects, want none", len(objs))
	}
}
