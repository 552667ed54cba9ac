package blob

import (
	"bytes"
	"context"
	"io"
	"mime"

	gcblob "gocloud.dev/blob"

	"github.com/pipekit/pipe/errcode"
)

// WriteOptions tune a write.
type WriteOptions struct {
	// ContentType is the object's MIME type. Default: "", which lets the
	// store sniff the first 512 bytes.
	ContentType string
}

// Write writes the object at key with what fn writes to w. Writing is
// atomic: the object appears, whole, only if fn returns nil and the upload
// completes. If fn fails or panics, or ctx ends first, the write is
// aborted, nothing appears and an object already at key is untouched: file
// buckets write a temporary file beside the object and rename it, S3 and
// GCS complete an upload in one step.
//
// fn's own error is answered as it is; store errors are coded, those w's
// Write returns to fn included.
func (b *Bucket) Write(ctx context.Context, key string, opts WriteOptions, fn func(w io.Writer) error) error {
	if err := b.check(key); err != nil {
		return err
	}
	if err := checkContentType(opts.ContentType); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return fail(err, "write", key)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w, err := b.b.NewWriter(ctx, key, &gcblob.WriterOptions{ContentType: opts.ContentType})
	if err != nil {
		return fail(err, "write", key)
	}
	done := false
	defer func() {
		if !done { // fn failed or panicked: abort
			cancel()
			_ = w.Close()
		}
	}()
	if err := fn(codedWriter{w: w, key: key}); err != nil {
		return err
	}
	done = true
	if err := w.Close(); err != nil {
		return fail(err, "write", key)
	}
	return nil
}

// codedWriter codes the store's errors from Write, so that fn sees (and
// passes on) a full disk or a refused write as such.
type codedWriter struct {
	w   io.Writer
	key string
}

func (c codedWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	if err != nil {
		err = fail(err, "write", c.key)
	}
	return n, err
}

// WriteBytes writes data as the object at key, atomically as [Bucket.Write]
// does.
func (b *Bucket) WriteBytes(ctx context.Context, key string, data []byte, opts WriteOptions) error {
	return b.Write(ctx, key, opts, func(w io.Writer) error {
		_, err := io.Copy(w, bytes.NewReader(data))
		return err
	})
}

func checkContentType(ct string) error {
	if ct == "" {
		return nil
	}
	if _, _, err := mime.ParseMediaType(ct); err != nil {
		return errcode.Wrap(err, errcode.ConfigInvalid, "content type is not a MIME type").
			WithFix("use a MIME type such as text/csv or application/octet-stream")
	}
	return nil
}
