package blob

import (
	"context"
	"io"
	"slices"
	"strings"

	gcblob "gocloud.dev/blob"

	"github.com/pipekit/pipe/errcode"
)

// Object is one entry of a listing.
type Object struct {
	Key string
	// Attrs holds Size, ModTime and, when the store keeps it, MD5; ETag and
	// ContentType need a [Bucket.Stat].
	Attrs
}

// List answers every object whose key starts with prefix, sorted by key,
// reading the store's pages until the end. An empty prefix lists the whole
// bucket; "dir/" lists under dir. A prefix is validated as a key is, but
// may end with "/"; a refused one is X_BLOB_KEY_INVALID. Keys are listed
// as the store holds them, so one written by another tool may be listed
// that [ValidateKey] then refuses to read. File buckets hide their
// in-flight temporary files.
func (b *Bucket) List(ctx context.Context, prefix string) ([]Object, error) {
	if err := b.checkPrefix(prefix); err != nil {
		return nil, err
	}
	var out []Object
	it := b.b.List(&gcblob.ListOptions{Prefix: prefix})
	for {
		o, err := it.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fail(err, "list", "")
		}
		if o.IsDir || b.scheme == SchemeFile && fileReserved(o.Key) {
			continue
		}
		out = append(out, Object{Key: o.Key, Attrs: Attrs{Size: o.Size, MD5: o.MD5, ModTime: o.ModTime}})
	}
	slices.SortFunc(out, func(x, y Object) int { return strings.Compare(x.Key, y.Key) })
	return out, nil
}

func (b *Bucket) checkPrefix(prefix string) error {
	if b.closed.Load() {
		return errcode.New(errcode.Invariant, "bucket is closed")
	}
	if prefix == "" {
		return nil
	}
	reason := keyProblem(strings.TrimSuffix(prefix, "/"))
	if prefix == "/" {
		reason = "starts with /"
	}
	if reason != "" {
		return errcode.New(errcode.BlobKeyInvalid, "prefix %s", reason).WithFix(keyFix)
	}
	return nil
}
