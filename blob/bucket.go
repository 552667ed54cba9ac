package blob

import (
	"context"
	"strings"
	"sync/atomic"
	"time"

	gcblob "gocloud.dev/blob"

	"github.com/pipekit/pipe/errcode"
)

// Bucket is an opened bucket. It is safe for concurrent use. Every method
// that takes a key validates it with [ValidateKey] before any I/O.
type Bucket struct {
	b      *gcblob.Bucket
	url    string
	scheme string
	dir    string // a file bucket's directory
	shared bool   // a named mem bucket: Close leaves it open for others
	closed atomic.Bool
}

// Attrs describes an object.
type Attrs struct {
	Size int64
	// ETag changes whenever the object does; its form is the store's.
	ETag string
	// MD5 is the content's MD5, when the store keeps it (file buckets
	// don't).
	MD5     []byte
	ModTime time.Time
	// ContentType is as written, when the store keeps it (file buckets
	// don't).
	ContentType string
}

// URL answers the URL the bucket was opened with, without user
// information.
func (b *Bucket) URL() string { return b.url }

// Close releases the bucket. Using it afterwards is X_INVARIANT.
func (b *Bucket) Close() error {
	if b.closed.Swap(true) || b.shared {
		return nil
	}
	if err := b.b.Close(); err != nil {
		return fail(err, "close", "")
	}
	return nil
}

// Stat answers the attributes of the object at key; a missing object is
// X_BLOB_NOT_FOUND.
func (b *Bucket) Stat(ctx context.Context, key string) (Attrs, error) {
	if err := b.check(key); err != nil {
		return Attrs{}, err
	}
	a, err := b.b.Attributes(ctx, key)
	if err != nil {
		return Attrs{}, b.failStat(err, key)
	}
	return Attrs{Size: a.Size, ETag: a.ETag, MD5: a.MD5, ModTime: a.ModTime, ContentType: a.ContentType}, nil
}

// Exists reports whether an object is at key.
func (b *Bucket) Exists(ctx context.Context, key string) (bool, error) {
	if err := b.check(key); err != nil {
		return false, err
	}
	ok, err := b.b.Exists(ctx, key)
	if err != nil {
		return false, fail(err, "exists", key)
	}
	return ok, nil
}

// Delete removes the object at key; a missing object is X_BLOB_NOT_FOUND.
func (b *Bucket) Delete(ctx context.Context, key string) error {
	if err := b.check(key); err != nil {
		return err
	}
	if err := b.b.Delete(ctx, key); err != nil {
		return fail(err, "delete", key)
	}
	return nil
}

// check refuses an invalid key, a key a file bucket keeps for itself, and
// a closed bucket.
func (b *Bucket) check(key string) error {
	if err := ValidateKey(key); err != nil {
		return err
	}
	if b.scheme == SchemeFile && fileReserved(key) {
		return errcode.New(errcode.BlobKeyInvalid, "key ends in a suffix file buckets reserve").
			WithFix("file buckets keep names ending .attrs or .<16 hex digits>.tmp for themselves; rename the object")
	}
	if b.closed.Load() {
		return errcode.New(errcode.Invariant, "bucket is closed")
	}
	return nil
}

// fileReserved reports whether key ends as fileblob's metadata sidecars
// (".attrs") or its in-flight temporary files (".<16 hex digits>.tmp") do.
func fileReserved(key string) bool {
	if strings.HasSuffix(key, ".attrs") {
		return true
	}
	stem, ok := strings.CutSuffix(key, ".tmp")
	if !ok || len(stem) < 17 || stem[len(stem)-17] != '.' {
		return false
	}
	return strings.Trim(stem[len(stem)-16:], "0123456789abcdef") == ""
}
