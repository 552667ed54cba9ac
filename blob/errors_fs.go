package blob

import (
	"errors"
	"path/filepath"
	"syscall"

	"gocloud.dev/gcerrors"

	"github.com/pipekit/pipe/errcode"
)

// localFailure codes an error of the local file system under a file
// bucket by what a retry can do about it: a full disk or quota
// (X_DISK_FULL, retried after a pause, as space may be freed), or a
// directory that refuses the operation (X_BLOB_PERMISSION_DENIED,
// terminal: permission denied, a read-only file system). Anything else is
// nil.
func localFailure(err error, what string) error {
	switch {
	case errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT):
		return errcode.Wrap(err, errcode.DiskFull, "%s: the disk is full", what).
			WithFix("free space on the bucket's disk (or raise its quota); the run retries by itself").
			WithRetryAfter(errcode.DiskFullRetryAfter)
	case errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EROFS):
		return errcode.Wrap(err, errcode.BlobPermissionDenied, "%s: permission denied or a read-only file system", what).
			WithFix("give the worker's user access to the bucket's directory (writable for a write), then retry the job (`pipe jobs retry ID`)")
	}
	return nil
}

// failStat codes a failed Stat: a file bucket's missing object is a missing
// file, named by its path, as a file system says it.
func (b *Bucket) failStat(err error, key string) error {
	if b.dir == "" || gcerrors.Code(err) != gcerrors.NotFound {
		return fail(err, "stat", key)
	}
	return errcode.Wrap(err, errcode.BlobNotFound, "no such file: %s", filepath.Join(b.dir, filepath.FromSlash(key))).
		WithFix("check the path, and that the file is on the machine that runs the import")
}
