package exportrows_test

import (
	"testing"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/internal/diskfault"
)

// wideRows is a table whose Parquet row group outgrows a 64 KiB disk.
const wideRows = `create table wide(id bigint primary key, note text);
	insert into wide select i, md5(i::text) || md5((i * 7)::text) from generate_series(1, 20000) i`

// A full disk fails the export with X_DISK_FULL — retried after a pause,
// not at once as a network failure would be — whether it is the
// destination's disk or the one a Parquet row group's pages wait on
// ($TMPDIR), each a real 64 KiB tmpfs.
func TestExportDiskFullIsRetryAfter(t *testing.T) {
	b := setup(t, wideRows)
	o := options()
	o.Job.Retry.Attempts = 1

	in := b.in(t, "wide")
	in.Bucket = "file://" + diskfault.Small(t, 64<<10)
	d, _ := run(t, b.pool, exportrows.MustNew(exportKey, o), in)
	if lastCode(d) != string(errcode.DiskFull) {
		t.Fatalf("full destination: %s, %s; want X_DISK_FULL", d.State, lastError(d))
	}

	t.Setenv("TMPDIR", diskfault.Small(t, 64<<10))
	in = b.in(t, "wide")
	in.Format, in.Run = exportrows.Parquet, "spill"
	d, _ = run(t, b.pool, exportrows.MustNew(exportKey, o), in)
	if lastCode(d) != string(errcode.DiskFull) {
		t.Fatalf("full $TMPDIR: %s, %s; want X_DISK_FULL", d.State, lastError(d))
	}
}

// A read-only destination, or a read-only $TMPDIR, stops the export at its
// first attempt: retrying cannot help until an operator fixes it.
func TestExportReadOnlyIsTerminal(t *testing.T) {
	b := setup(t, wideRows)
	o := options()

	in := b.in(t, "wide")
	in.Bucket = "file://" + diskfault.ReadOnly(t)
	d, _ := run(t, b.pool, exportrows.MustNew(exportKey, o), in)
	if lastCode(d) != string(errcode.BlobPermissionDenied) || d.Attempt != 1 {
		t.Fatalf("read-only destination: %s after %d attempts, %s; want X_BLOB_PERMISSION_DENIED at once", d.State, d.Attempt, lastError(d))
	}

	t.Setenv("TMPDIR", diskfault.ReadOnly(t))
	in = b.in(t, "wide")
	in.Format, in.Run = exportrows.Parquet, "spill"
	d, _ = run(t, b.pool, exportrows.MustNew(exportKey, o), in)
	if lastCode(d) != string(errcode.TempDirUnwritable) || d.Attempt != 1 {
		t.Fatalf("read-only $TMPDIR: %s after %d attempts, %s; want X_TEMP_DIR_UNWRITABLE at once", d.State, d.Attempt, lastError(d))
	}
}
