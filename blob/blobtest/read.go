package blobtest

import (
	"bytes"
	"context"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/errcode"
)

var digits = []byte("0123456789abcdefghij")

func testRoundTrip(t *testing.T, b *blob.Bucket, be Backend) {
	ctx := context.Background()
	before := time.Now().Add(-time.Hour)
	err := b.WriteBytes(ctx, "dir/f.csv", digits, blob.WriteOptions{ContentType: "text/csv"})
	RequireNoError(t, err)
	RequireContent(t, b, "dir/f.csv", digits)
	a, err := b.Stat(ctx, "dir/f.csv")
	RequireNoError(t, err)
	if a.Size != int64(len(digits)) || a.ETag == "" || a.ModTime.Before(before) {
		t.Fatalf("Stat = %+v, want size %d, an ETag and a recent ModTime", a, len(digits))
	}
	if !be.NoMetadata && (a.ContentType != "text/csv" || len(a.MD5) != 16) {
		t.Fatalf("Stat = %+v, want content type text/csv and an MD5", a)
	}
	ok, err := b.Exists(ctx, "dir/f.csv")
	RequireNoError(t, err)
	if !ok {
		t.Fatal("Exists = false after a write")
	}
}

func testEmptyObject(t *testing.T, b *blob.Bucket, _ Backend) {
	Put(t, b, "empty", nil)
	RequireContent(t, b, "empty", nil)
	a, err := b.Stat(context.Background(), "empty")
	RequireNoError(t, err)
	if a.Size != 0 {
		t.Fatalf("Size = %d, want 0", a.Size)
	}
}

func testOverwrite(t *testing.T, b *blob.Bucket, _ Backend) {
	Put(t, b, "k", []byte("first version"))
	Put(t, b, "k", []byte("second"))
	RequireContent(t, b, "k", []byte("second"))
}

func testRangedRead(t *testing.T, b *blob.Bucket, _ Backend) {
	Put(t, b, "r", digits)
	for _, c := range []struct {
		off, n int64
		want   string
	}{
		{0, 3, "012"}, {5, 4, "5678"}, {15, -1, "fghij"}, {18, 10, "ij"}, {0, -1, string(digits)},
	} {
		rc, err := b.NewRangeReader(context.Background(), "r", c.off, c.n)
		RequireNoError(t, err)
		got, err := io.ReadAll(rc)
		RequireNoError(t, err)
		RequireNoError(t, rc.Close())
		if string(got) != c.want {
			t.Fatalf("range (%d, %d) = %q, want %q", c.off, c.n, got, c.want)
		}
	}
	_, err := b.NewRangeReader(context.Background(), "r", -1, 2)
	RequireCode(t, err, errcode.Invariant)
}

func testReaderAt(t *testing.T, b *blob.Bucket, _ Backend) {
	Put(t, b, "ra", digits)
	ra := b.ReaderAt(context.Background(), "ra", int64(len(digits)))
	p := make([]byte, 4)
	n, err := ra.ReadAt(p, 10)
	if n != 4 || err != nil || !bytes.Equal(p, []byte("abcd")) {
		t.Fatalf("ReadAt(10) = %d, %v, %q", n, err, p)
	}
	n, err = ra.ReadAt(p, 18) // past the end: the tail and io.EOF
	if n != 2 || err != io.EOF || !bytes.Equal(p[:2], []byte("ij")) {
		t.Fatalf("ReadAt(18) = %d, %v, %q; want 2, EOF", n, err, p[:n])
	}
	if n, err = ra.ReadAt(p, 20); n != 0 || err != io.EOF {
		t.Fatalf("ReadAt(20) = %d, %v; want 0, EOF", n, err)
	}
	_, err = b.ReaderAt(context.Background(), "missing", 10).ReadAt(p, 0)
	RequireCode(t, err, errcode.BlobNotFound)
	_, err = b.ReaderAt(context.Background(), "../x", 10).ReadAt(p, 0)
	RequireCode(t, err, errcode.BlobKeyInvalid)
}

func testList(t *testing.T, b *blob.Bucket, _ Backend) {
	keys := []string{"z", "dir/b", "dir/a", "dir/sub/c", "dirx", "a b"}
	for i, k := range keys {
		Put(t, b, k, digits[:i+1])
	}
	all, err := b.List(context.Background(), "")
	RequireNoError(t, err)
	want := slices.Clone(keys)
	slices.Sort(want)
	if got := listedKeys(all); !slices.Equal(got, want) {
		t.Fatalf("List(\"\") = %q, want %q", got, want)
	}
	for _, o := range all {
		if i := slices.Index(keys, o.Key); o.Size != int64(i+1) {
			t.Fatalf("%s: Size = %d, want %d", o.Key, o.Size, i+1)
		}
	}
	under, err := b.List(context.Background(), "dir/")
	RequireNoError(t, err)
	if got := listedKeys(under); !slices.Equal(got, []string{"dir/a", "dir/b", "dir/sub/c"}) {
		t.Fatalf("List(dir/) = %q", got)
	}
	for _, p := range []string{"/", "../", "a//", `a\`} {
		_, err := b.List(context.Background(), p)
		RequireCode(t, err, errcode.BlobKeyInvalid)
	}
}

func listedKeys(objs []blob.Object) []string {
	keys := make([]string, len(objs))
	for i, o := range objs {
		keys[i] = o.Key
	}
	return keys
}

func testDelete(t *testing.T, b *blob.Bucket, _ Backend) {
	Put(t, b, "d/x", digits)
	RequireNoError(t, b.Delete(context.Background(), "d/x"))
	RequireAbsent(t, b, "d/x")
	RequireCode(t, b.Delete(context.Background(), "d/x"), errcode.BlobNotFound)
}

func testNotFound(t *testing.T, b *blob.Bucket, _ Backend) {
	_, err := b.NewReader(context.Background(), "missing/key")
	RequireCode(t, err, errcode.BlobNotFound)
	e, _ := errcode.As(err)
	if !strings.Contains(e.Message, `"missing/key"`) {
		t.Fatalf("message %q does not name the key", e.Message)
	}
	RequireAbsent(t, b, "missing/key")
}
