package blob

import (
	"context"
	"io"

	gcblob "gocloud.dev/blob"
	"gocloud.dev/gcerrors"
)

// SweepTemporary removes the temporary files that writes to a file bucket
// left under prefix when their process was killed mid-write: a file bucket
// writes <key>.<16 hex digits>.tmp beside the object and renames it, and a
// write that ends, well or not, removes its own. A SIGKILL leaves it, where
// a part-* glob would pick it up. Other stores keep no temporary object, so
// there it does nothing. It answers how many files it removed.
//
// Sweep only a prefix no live write is under — a run's own directory when
// its attempt starts: a write in flight there would lose its file.
func (b *Bucket) SweepTemporary(ctx context.Context, prefix string) (int, error) {
	if b.scheme != SchemeFile {
		return 0, nil
	}
	if err := b.checkPrefix(prefix); err != nil {
		return 0, err
	}
	it := b.b.List(&gcblob.ListOptions{Prefix: prefix})
	n := 0
	for {
		o, err := it.Next(ctx)
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, fail(err, "list", "")
		}
		if o.IsDir || !isTemporary(o.Key) {
			continue
		}
		if err := b.b.Delete(ctx, o.Key); err != nil && gcerrors.Code(err) != gcerrors.NotFound {
			return n, fail(err, "delete", o.Key)
		}
		n++
	}
}

// isTemporary reports a file bucket's in-flight temporary file.
func isTemporary(key string) bool {
	return len(key) > 4 && key[len(key)-4:] == ".tmp" && fileReserved(key)
}
