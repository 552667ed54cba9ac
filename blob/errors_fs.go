package blob

import (
	"errors"
	"syscall"

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
