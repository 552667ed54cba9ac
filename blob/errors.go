package blob

import (
	"errors"
	"io/fs"
	"net"
	"strconv"

	"gocloud.dev/gcerrors"

	"github.com/pipekit/pipe/errcode"
)

// fail codes an error from the gocloud.dev bucket; every Bucket method
// passes its driver errors through here, once. The cause stays reachable
// with errors.Is and errors.As (a cancelled context is still
// context.Canceled) but out of the message, which names only the operation
// and the validated key.
func fail(err error, op, key string) error {
	what := op
	if key != "" {
		what = op + " " + strconv.Quote(key)
	}
	if local := localFailure(err, what); local != nil {
		return local
	}
	switch code := gcerrors.Code(err); {
	case code == gcerrors.NotFound:
		return errcode.Wrap(err, errcode.BlobNotFound, "%s: object not found", what).
			WithFix("check the key and the bucket URL; list the bucket to see what it holds")
	case code == gcerrors.PermissionDenied:
		return errcode.Wrap(err, errcode.BlobPermissionDenied, "%s: permission denied", what).
			WithFix("grant the credentials access to the bucket, then retry the job (`pipe jobs retry ID`)")
	case code == gcerrors.Canceled || code == gcerrors.DeadlineExceeded:
		return errcode.Wrap(err, errcode.BlobUnavailable, "%s: cancelled", what).
			WithFix("retry with a longer deadline")
	}
	return errcode.Wrap(err, errcode.BlobUnavailable, "%s: object store failed", what).
		WithFix("retry; if it persists, check the network and the store's health")
}

// transient reports whether err may pass on retry: a network error, or a
// gocloud.dev code saying the store is busy, broken or was too slow. A
// local file system's error is not a network error, though *fs.PathError
// has the methods of one.
func transient(err error) bool {
	var ne net.Error
	var pe *fs.PathError
	if errors.As(err, &ne) && !errors.As(err, &pe) {
		return true
	}
	switch gcerrors.Code(err) {
	case gcerrors.Internal, gcerrors.ResourceExhausted, gcerrors.DeadlineExceeded, gcerrors.Canceled:
		return true
	}
	return false
}
