package blob

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/pipekit/pipe/errcode"
)

// CheckWritable refuses, before anything is written, a file bucket whose
// directory for keys under prefix cannot be written: permission denied, a
// read-only file system (X_BLOB_PERMISSION_DENIED, as a write would be). It
// asks the nearest directory that exists; it writes nothing. Other stores
// answer nil: only a write tells.
func (b *Bucket) CheckWritable(prefix string) error {
	if b.dir == "" {
		return nil
	}
	dir := filepath.Join(b.dir, filepath.FromSlash(prefix))
	for {
		fi, err := os.Stat(dir)
		switch {
		case err == nil && !fi.IsDir():
			return errcode.New(errcode.BlobPermissionDenied, "write under %s: %s is a file, not a directory", strconv.Quote(prefix), dir).
				WithFix("name a directory to write under")
		case err == nil:
			if err := writable(dir); err != nil {
				return localFailure(err, "write under "+strconv.Quote(prefix))
			}
			return nil
		case !errors.Is(err, fs.ErrNotExist) || filepath.Dir(dir) == dir:
			return fail(err, "write under", prefix)
		}
		dir = filepath.Dir(dir)
	}
}
