package exportrows

import (
	"errors"
	"syscall"

	"github.com/pipekit/pipe/errcode"
)

// spillFailure codes an error of a spill file by what a retry can do about
// it: a full disk or quota is X_DISK_FULL (retried after a pause, as space
// may be freed), a temporary directory that refuses files (permission
// denied, read-only) X_TEMP_DIR_UNWRITABLE (terminal until an operator
// fixes it). Other errors, and nil, pass through.
func spillFailure(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT):
		return errcode.Wrap(err, errcode.DiskFull, "export: the temporary directory's disk is full").
			WithFix("free space where $TMPDIR points (a Parquet row group's pages wait there), or point it at a larger disk; the run retries by itself").
			WithRetryAfter(errcode.DiskFullRetryAfter)
	case errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EROFS):
		return errcode.Wrap(err, errcode.TempDirUnwritable, "export: the temporary directory refuses files (permission denied or read-only)").
			WithFix("point $TMPDIR at a directory the worker may write, then retry the job (`pipe jobs retry ID`)")
	}
	return err
}

// Write writes through to the file, coding its failure.
func (f *spillFile) Write(p []byte) (int, error) {
	n, err := f.File.Write(p)
	return n, spillFailure(err)
}
