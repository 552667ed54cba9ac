package pqread_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/importrows/internal/pqread"
	"github.com/pipekit/pipe/internal/hostile"
)

// readLimited opens data within lim and reads every row group, answering
// the rows read and the first error.
func readLimited(data []byte, lim pqread.Limits) (int, error) {
	f, err := pqread.OpenLimited(bytes.NewReader(data), int64(len(data)), lim)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	if err := f.Check(); err != nil {
		return 0, err
	}
	rows := 0
	for g := range f.RowGroups() {
		err := f.ReadRowGroup(context.Background(), g, func(int64, []pqread.Value) error { rows++; return nil })
		if err != nil {
			return rows, err
		}
	}
	return rows, nil
}

// refused fails the test unless reading data within lim fails with code,
// reading no row, with a message that quotes none of the file.
func refused(t *testing.T, data []byte, lim pqread.Limits, code errcode.Code) error {
	t.Helper()
	rows, err := readLimited(data, lim)
	wantCode(t, err, code)
	if rows != 0 {
		t.Errorf("%d rows read before the refusal", rows)
	}
	if strings.Contains(err.Error(), "nnnn") {
		t.Errorf("error %q quotes the file", err)
	}
	return err
}

// A footer that claims two billion row groups in a hundred bytes is
// refused before parquet-go makes the list (180 GB: the process would
// die); so is a footer past the memory limit.
func TestOpenRefusesFooterClaims(t *testing.T) {
	t.Parallel()
	refused(t, hostile.FooterClaim(), pqread.Limits{}, errcode.ImportRecordInvalid)
	refused(t, hostile.CorruptFooter(), pqread.Limits{}, errcode.ImportRecordInvalid)
	err := refused(t, numbered(t, 100, 10), pqread.Limits{MaxMemory: 1 << 10}, errcode.ParquetTooLarge)
	if !strings.Contains(err.Error(), "footer") {
		t.Errorf("error %q does not name the footer", err)
	}
}

// Pages that would inflate past the ratio to the file's size, or past the
// byte limit, by the footer's sizes, are refused at Open.
func TestOpenRefusesInflation(t *testing.T) {
	t.Parallel()
	refused(t, hostile.BigPage(64<<20), pqread.Limits{MaxRatio: 200}, errcode.DecompressedTooLarge)
	refused(t, numbered(t, 10000, 10000), pqread.Limits{MaxDecodedBytes: 1 << 10}, errcode.DecompressedTooLarge)
	if _, err := readLimited(numbered(t, 10000, 10000), pqread.Limits{MaxRatio: 200}); err != nil {
		t.Fatalf("a plain file within the ratio: %v", err)
	}
}

// A page that needs more memory than the page limit is refused from its
// header, before its body is read — so is one whose footer hid it.
func TestReadRefusesBigPage(t *testing.T) {
	t.Parallel()
	err := refused(t, hostile.BigPage(64<<20), pqread.Limits{}, errcode.ParquetTooLarge)
	if e, _ := errcode.As(err); e.Meta[pqread.MetaRowGroup] != "0" || !strings.Contains(err.Error(), "page 0 of column 0") {
		t.Errorf("error %v does not name the page and row group 0", err)
	}
	refused(t, hostile.BigPageSmallFooter(64<<20), pqread.Limits{}, errcode.DecompressedTooLarge)
	if _, err := readLimited(hostile.BigPage(4<<20), pqread.Limits{}); err != nil {
		t.Fatalf("a 4 MiB page: %v", err)
	}
}

// A page that inflates past the size its header declares is refused by a
// trial decompression that keeps nothing, before parquet-go's codec grows
// its buffer to fit.
func TestReadRefusesInflatingPage(t *testing.T) {
	t.Parallel()
	refused(t, hostile.InflatingPage(64<<20), pqread.Limits{}, errcode.DecompressedTooLarge)
}

// A hundred million values in one page of a few bytes need 600 MiB
// decoded: refused; a thousand read.
func TestReadRefusesManyValues(t *testing.T) {
	t.Parallel()
	refused(t, hostile.ManyValues(100_000_000), pqread.Limits{}, errcode.ParquetTooLarge)
	rows, err := readLimited(hostile.ManyValues(1000), pqread.Limits{})
	if err != nil || rows != 1000 {
		t.Fatalf("a thousand values: %d rows, %v", rows, err)
	}
}

// Columns whose open pages together pass the memory limit are refused,
// naming the row group's open pages; within it they read.
func TestReadRefusesWideRowGroup(t *testing.T) {
	t.Parallel()
	data := hostile.Wide(8, 4<<20)
	err := refused(t, data, pqread.Limits{MaxMemory: 16 << 20}, errcode.ParquetTooLarge)
	if !strings.Contains(err.Error(), "open pages") {
		t.Errorf("error %q does not name the open pages", err)
	}
	if _, err := readLimited(data, pqread.Limits{}); err != nil {
		t.Fatalf("within the limit: %v", err)
	}
}

// A snappy page claiming 4 GiB, an LZ4 page that is not LZ4 (parquet-go's
// codec would double its buffer for ever) and a zstd page with a window
// past the limit are refused.
func TestReadRefusesCodecClaims(t *testing.T) {
	t.Parallel()
	refused(t, hostile.SnappyClaim(), pqread.Limits{}, errcode.DecompressedTooLarge)
	refused(t, hostile.LZ4Garbage(), pqread.Limits{}, errcode.ImportRecordInvalid)
	refused(t, hostile.WindowPage(16<<20), pqread.Limits{}, errcode.CompressionWindowTooLarge)
	if _, err := readLimited(hostile.WindowPage(16<<20), pqread.Limits{MaxWindow: 16 << 20}); err != nil {
		t.Fatalf("within a raised window: %v", err)
	}
}

// Files of every codec parquet-go writes read whole through the checks.
func TestReadEveryCodec(t *testing.T) {
	t.Parallel()
	for _, codec := range []compress.Codec{&parquet.Uncompressed, &parquet.Snappy, &parquet.Gzip,
		&parquet.Brotli, &parquet.Zstd, &parquet.Lz4Raw} {
		data := encode(t, numberedSchema, numberedRows(5000), parquet.Compression(codec), parquet.PageBufferSize(4<<10))
		rows, err := readLimited(data, pqread.Limits{MaxRatio: 200})
		if err != nil || rows != 5000 {
			t.Errorf("%s: %d rows, %v", codec, rows, err)
		}
	}
}
