package errcode_test

import (
	"testing"

	"github.com/pipekit/pipe/errcode"
)

// Input over its limits, a damaged file and an unwritable temporary
// directory fail the same way again: terminal. A full disk may pass once
// space is freed: retry-after.
func TestIOCodeClasses(t *testing.T) {
	for code, want := range map[errcode.Code]errcode.Class{
		errcode.CompressionWindowTooLarge: errcode.Terminal,
		errcode.DecompressedTooLarge:      errcode.Terminal,
		errcode.ParquetTooLarge:           errcode.Terminal,
		errcode.ImportRecordInvalid:       errcode.Terminal,
		errcode.TempDirUnwritable:         errcode.Terminal,
		errcode.BlobPermissionDenied:      errcode.Terminal,
		errcode.DiskFull:                  errcode.RetryAfter,
		errcode.BlobUnavailable:           errcode.Retryable,
	} {
		if got := errcode.ClassOf(code); got != want {
			t.Errorf("%s is %s, want %s", code, got, want)
		}
	}
}
