// Package blobtest is the conformance suite every [blob.Bucket] backend
// runs, and the helpers its tests share. A new backend's test opens a
// fresh bucket per call and hands it to [Run].
package blobtest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/errcode"
)

// Backend says how to open buckets of one kind and what they keep.
type Backend struct {
	// Open answers a fresh, empty bucket; Run closes it.
	Open func(t *testing.T) *blob.Bucket
	// NoMetadata says the store keeps neither content type nor MD5, as file
	// buckets don't.
	NoMetadata bool
}

// Run runs the conformance suite against be, one parallel subtest per
// behaviour, each on a bucket of its own.
func Run(t *testing.T, be Backend) {
	cases := []struct {
		name string
		fn   func(*testing.T, *blob.Bucket, Backend)
	}{
		{"RoundTrip", testRoundTrip},
		{"EmptyObject", testEmptyObject},
		{"Overwrite", testOverwrite},
		{"RangedRead", testRangedRead},
		{"ReaderAt", testReaderAt},
		{"List", testList},
		{"Delete", testDelete},
		{"NotFound", testNotFound},
		{"HostileKeys", testHostileKeys},
		{"AbortedWrite", testAbortedWrite},
		{"AbortedOverwrite", testAbortedOverwrite},
		{"CancelledWrite", testCancelledWrite},
		{"PanickingWrite", testPanickingWrite},
		{"LargeAbortedWrite", testLargeAbortedWrite},
		{"Closed", testClosed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			b := be.Open(t)
			t.Cleanup(func() { _ = b.Close() })
			c.fn(t, b, be)
		})
	}
}

// HostileKeys answers keys [blob.ValidateKey] must refuse, by what is
// wrong with them.
func HostileKeys() map[string]string {
	return map[string]string{
		"parent":          "../x",
		"inner parent":    "a/../b",
		"absolute":        "/etc/passwd",
		"empty segment":   "a//b",
		"backslash":       `a\b`,
		"NUL":             "a\x00b",
		"newline":         "a\nb",
		"DEL":             "a\x7fb",
		"empty":           "",
		"dot":             ".",
		"dot segment":     "a/./b",
		"trailing slash":  "x/",
		"too long":        strings.Repeat("k", blob.MaxKeyLen+1),
		"invalid UTF-8":   "a\xffb",
		"parent alone":    "..",
		"trailing parent": "a/..",
	}
}

// RequireCode fails t unless err carries code.
func RequireCode(t testing.TB, err error, code errcode.Code) {
	t.Helper()
	if !errors.Is(err, code) {
		t.Fatalf("error = %v, want code %s", err, code)
	}
}

// RequireNoError fails t if err is not nil.
func RequireNoError(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
}

// ReadAll reads the whole object at key.
func ReadAll(t testing.TB, b *blob.Bucket, key string) []byte {
	t.Helper()
	r, err := b.NewReader(context.Background(), key)
	RequireNoError(t, err)
	defer r.Close()
	data, err := io.ReadAll(r)
	RequireNoError(t, err)
	return data
}

// RequireContent fails t unless the object at key holds want.
func RequireContent(t testing.TB, b *blob.Bucket, key string, want []byte) {
	t.Helper()
	if got := ReadAll(t, b, key); !bytes.Equal(got, want) {
		t.Fatalf("object %s holds %q, want %q", key, got, want)
	}
}

// RequireAbsent fails t unless no object is at key, by Exists and Stat.
func RequireAbsent(t testing.TB, b *blob.Bucket, key string) {
	t.Helper()
	ok, err := b.Exists(context.Background(), key)
	RequireNoError(t, err)
	if ok {
		t.Fatalf("object %s exists, want absent", key)
	}
	_, err = b.Stat(context.Background(), key)
	RequireCode(t, err, errcode.BlobNotFound)
}

// Put writes data at key or fails t.
func Put(t testing.TB, b *blob.Bucket, key string, data []byte) {
	t.Helper()
	RequireNoError(t, b.WriteBytes(context.Background(), key, data, blob.WriteOptions{}))
}
