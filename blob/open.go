package blob

import (
	"context"
	"net/url"
	"path/filepath"

	gcblob "gocloud.dev/blob"
	"gocloud.dev/blob/fileblob"

	"github.com/pipekit/pipe/errcode"
)

// fileDefaults are the fileblob parameters Open sets unless the URL sets
// them: create the directory, write temporary files beside their object so
// the final rename stays on one file system (and so is atomic), and write no
// ".attrs" sidecar files next to the user's data.
var fileDefaults = map[string]string{
	"create_dir": "true",
	"no_tmp_dir": "true",
	"metadata":   string(fileblob.MetadataDontWrite),
}

// Open opens the bucket at url: file:///dir, a local path (absolute or
// relative), mem://name, s3://bucket, gs://bucket or azblob://container.
// Query parameters go to the gocloud.dev driver; for S3-compatible stores
// use s3://bucket?endpoint=https://host&use_path_style=true&region=r.
// Credentials come from the environment as each driver documents.
//
// A file bucket's directory is created if missing. mem://name buckets are
// shared by name for the life of the process. An unknown scheme or a
// malformed URL is X_BLOB_URL_INVALID.
func Open(ctx context.Context, url string) (*Bucket, error) {
	scheme := schemeOf(url)
	if scheme == "" {
		return openPath(ctx, url)
	}
	u, err := parseURL(url)
	if err != nil {
		return nil, err
	}
	shown := redacted(u)
	switch u.Scheme {
	case SchemeMem:
		return openMem(ctx, u, shown)
	case SchemeFile:
		setFileDefaults(u)
		return openFile(ctx, u, shown, filepath.FromSlash(u.Path))
	}
	return openDriver(ctx, u.String(), shown, scheme)
}

// openPath opens a plain local path as a file bucket.
func openPath(ctx context.Context, dir string) (*Bucket, error) {
	if dir == "" {
		return nil, urlInvalid("bucket URL is empty")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, errcode.Wrap(err, errcode.BlobURLInvalid, "path cannot be made absolute")
	}
	u := &url.URL{Scheme: SchemeFile, Path: filepath.ToSlash(abs)}
	if u.Path[0] != '/' {
		u.Path = "/" + u.Path // a Windows drive: file:///C:/dir
	}
	setFileDefaults(u)
	return openFile(ctx, u, dir, abs)
}

// openFile opens a file bucket, which knows its directory.
func openFile(ctx context.Context, u *url.URL, shown, dir string) (*Bucket, error) {
	b, err := openDriver(ctx, u.String(), shown, SchemeFile)
	if err != nil {
		return nil, err
	}
	b.dir = dir
	return b, nil
}

func setFileDefaults(u *url.URL) {
	q := u.Query()
	for k, v := range fileDefaults {
		if !q.Has(k) {
			q.Set(k, v)
		}
	}
	u.RawQuery = q.Encode()
}

func openDriver(ctx context.Context, full, shown, scheme string) (*Bucket, error) {
	if err := unlinked(scheme); err != nil {
		return nil, err
	}
	b, err := gcblob.OpenBucket(ctx, full)
	if err != nil {
		return nil, openFailed(err)
	}
	return &Bucket{b: b, url: shown, scheme: scheme}, nil
}

// openFailed codes a driver's refusal to open. A local directory that
// cannot be made is X_DISK_FULL or X_BLOB_PERMISSION_DENIED as
// [localFailure] says; transient failures are X_BLOB_UNAVAILABLE; anything
// else is taken to be the URL's fault. The
// cause is kept out of the message: drivers quote the URL.
func openFailed(err error) error {
	if local := localFailure(err, "open bucket"); local != nil {
		return local
	}
	if transient(err) {
		return errcode.Wrap(err, errcode.BlobUnavailable, "open bucket: store unavailable").
			WithFix("retry; if it persists, check the network and the store's health")
	}
	return errcode.Wrap(err, errcode.BlobURLInvalid, "open bucket: the driver refused the URL").
		WithFix("check the URL's query parameters and the store's credentials")
}

// redacted answers u without user information.
func redacted(u *url.URL) string {
	c := *u
	c.User = nil
	return c.String()
}
