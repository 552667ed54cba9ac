package blob

import (
	"context"
	"io"

	gcblob "gocloud.dev/blob"

	"github.com/pipekit/pipe/errcode"
)

// NewReader opens the object at key for reading; a missing object is
// X_BLOB_NOT_FOUND. The caller closes the reader.
func (b *Bucket) NewReader(ctx context.Context, key string) (io.ReadCloser, error) {
	return b.NewRangeReader(ctx, key, 0, -1)
}

// NewRangeReader opens n bytes of the object at key from offset off, or
// everything from off when n is negative. A range past the end is cut
// short at the end. Errors from Read are coded as the Bucket's are.
func (b *Bucket) NewRangeReader(ctx context.Context, key string, off, n int64) (io.ReadCloser, error) {
	if err := b.check(key); err != nil {
		return nil, err
	}
	if off < 0 {
		return nil, errcode.New(errcode.Invariant, "range offset is negative")
	}
	if n < 0 {
		n = -1
	}
	r, err := b.b.NewRangeReader(ctx, key, off, n, nil)
	if err != nil {
		return nil, fail(err, "read", key)
	}
	return &reader{r: r, key: key}, nil
}

// reader codes the errors of a gocloud.dev reader.
type reader struct {
	r   *gcblob.Reader
	key string
}

func (r *reader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if err != nil && err != io.EOF {
		err = fail(err, "read", r.key)
	}
	return n, err
}

func (r *reader) Close() error {
	if err := r.r.Close(); err != nil {
		return fail(err, "close reader", r.key)
	}
	return nil
}

// ReaderAt answers an io.ReaderAt over the object at key, whose size the
// caller knows (from [Bucket.Stat]); each ReadAt is one ranged read, as
// columnar formats want for footers and row groups. Errors, an invalid key
// included, surface from ReadAt.
func (b *Bucket) ReaderAt(ctx context.Context, key string, size int64) io.ReaderAt {
	return &readerAt{ctx: ctx, b: b, key: key, size: size}
}

type readerAt struct {
	ctx  context.Context
	b    *Bucket
	key  string
	size int64
}

// ReadAt reads len(p) bytes at off, answering io.EOF when the object ends
// first, as io.ReaderAt requires.
func (r *readerAt) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errcode.New(errcode.Invariant, "range offset is negative")
	}
	if off >= r.size {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	want := min(int64(len(p)), r.size-off)
	rc, err := r.b.NewRangeReader(r.ctx, r.key, off, want)
	if err != nil {
		return 0, err
	}
	defer rc.Close()
	n, err := io.ReadFull(rc, p[:want])
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		err = io.EOF // the object is shorter than the size given
	}
	if err == nil && want < int64(len(p)) {
		err = io.EOF
	}
	return n, err
}
