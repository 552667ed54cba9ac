package subject

import (
	"context"
	"io"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/errcode"
)

// ObjectsOf answers a Target for the person's objects in the bucket at
// bucketURL (see blob.Open) whose keys keysOf finds — in a table that
// lists the person's uploads, say, through p.Tx — where an Objects entry
// builds them from a prefix. Erase deletes each (an object already gone
// counts as deleted, so a replay deletes nothing twice); Export copies
// each into the export under its own key. A key that is not a valid key
// ("..", a leading "/") is refused with X_BLOB_KEY_INVALID, never
// reached.
func ObjectsOf(bucketURL string, keysOf func(ctx context.Context, p Person) ([]string, error)) Target {
	return objectsOf{url: bucketURL, keysOf: keysOf}
}

type objectsOf struct {
	url    string
	keysOf func(ctx context.Context, p Person) ([]string, error)
}

// open answers the bucket and the person's keys, each checked.
func (o objectsOf) open(ctx context.Context, p Person) (*blob.Bucket, []string, error) {
	keys, err := o.keysOf(ctx, p)
	if err != nil {
		return nil, nil, err
	}
	for _, k := range keys {
		if err := blob.ValidateKey(k); err != nil {
			return nil, nil, errcode.New(errcode.BlobKeyInvalid, "subject: a key the target's keysOf answered is not a valid object key").
				WithFix("answer keys relative to the bucket, without '..', a leading '/' or control characters")
		}
	}
	b, err := blob.Open(ctx, o.url)
	return b, keys, err
}

func (o objectsOf) Erase(ctx context.Context, p Person) (int64, error) {
	b, keys, err := o.open(ctx, p)
	if err != nil {
		return 0, err
	}
	defer b.Close()
	var n int64
	for _, k := range keys {
		if err := b.Delete(ctx, k); err != nil && !errorsIsNotFound(err) {
			return n, err
		}
		n++
	}
	return n, nil
}

func (o objectsOf) Export(ctx context.Context, p Person, out *TargetOut) error {
	b, keys, err := o.open(ctx, p)
	if err != nil {
		return err
	}
	defer b.Close()
	for _, k := range keys {
		err := out.Write(ctx, k, func(w io.Writer) error {
			r, err := b.NewReader(ctx, k)
			if err != nil {
				return err
			}
			defer r.Close()
			_, err = io.Copy(w, r)
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}
