package pqread_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/importrows/internal/pqread"
)

// A file that is not Parquet, or is damaged, is X_IMPORT_RECORD_INVALID and
// the message quotes none of its bytes.
func TestOpenCorrupt(t *testing.T) {
	t.Parallel()
	valid := numbered(t, 10, 10)
	decimal := parquet.NewSchema("t", parquet.Group{"d": parquet.Decimal(2, 38, parquet.FixedLenByteArrayType(16))})
	noLength := rewriteFooter(t, encode(t, decimal, nil), func(md *format.FileMetaData) {
		md.Schema[1].TypeLength = thrift.Null[int32]{} // parquet-go panics on this
	})
	for name, data := range map[string][]byte{
		"decimal without length": noLength,
		"empty":                  nil,
		"text":                   []byte("secret,values\n1,2\n"),
		"magic only":             []byte("PAR1PAR1"),
		"truncated":              valid[:len(valid)-20],
		"footer garbage":         append(bytes.Clone(valid[:len(valid)-60]), append(bytes.Repeat([]byte{0xfd}, 52), valid[len(valid)-8:]...)...),
		"huge footer len":        append(bytes.Clone(valid[:len(valid)-8]), 0xff, 0xff, 0xff, 0x7f, 'P', 'A', 'R', '1'),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, err := pqread.Open(bytes.NewReader(data), int64(len(data)))
			wantCode(t, err, errcode.ImportRecordInvalid)
			if strings.Contains(err.Error(), "secret") || strings.Contains(err.Error(), "PAR1") {
				t.Errorf("error %q quotes the file", err)
			}
		})
	}
}

// Damaged pages are X_IMPORT_RECORD_INVALID when the row group is read.
func TestReadCorruptPages(t *testing.T) {
	t.Parallel()
	data := bytes.Clone(numbered(t, 100, 100))
	for i := 4; i < 64; i++ {
		data[i] = 0xfd
	}
	f := open(t, data)
	err := f.ReadRowGroup(context.Background(), 0, func(int64, []pqread.Value) error { return nil })
	wantCode(t, err, errcode.ImportRecordInvalid)
	if e, _ := errcode.As(err); e.Meta[pqread.MetaRowGroup] != "0" {
		t.Errorf("error %v does not name row group 0", err)
	}
}

// failingReader fails every read at or past from.
type failingReader struct {
	r    io.ReaderAt
	from int64
	err  error
}

func (f failingReader) ReadAt(p []byte, off int64) (int, error) {
	if off >= f.from {
		return 0, f.err
	}
	return f.r.ReadAt(p, off)
}

// A failure of the reader itself is returned wrapped, not as a corrupt file.
func TestSourceError(t *testing.T) {
	t.Parallel()
	data := numbered(t, 100, 100)
	unavailable := errcode.New(errcode.BlobUnavailable, "object store down")
	_, err := pqread.Open(failingReader{bytes.NewReader(data), 0, unavailable}, int64(len(data)))
	if !errors.Is(err, unavailable) || errcode.CodeOf(err) != errcode.BlobUnavailable {
		t.Fatalf("Open: %v, want the reader's error", err)
	}

	// Pages fail, the footer does not.
	pages := &flakyReader{r: bytes.NewReader(data), err: unavailable}
	f, err := pqread.Open(pages, int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	pages.failing = true
	err = f.ReadRowGroup(context.Background(), 0, func(int64, []pqread.Value) error { return nil })
	if !errors.Is(err, unavailable) {
		t.Fatalf("ReadRowGroup: %v, want the reader's error", err)
	}
}

// flakyReader fails once failing is set.
type flakyReader struct {
	r       io.ReaderAt
	err     error
	failing bool
}

func (f *flakyReader) ReadAt(p []byte, off int64) (int, error) {
	if f.failing {
		return 0, f.err
	}
	return f.r.ReadAt(p, off)
}

// Whatever the bytes, reading never panics and every error has a code.
// (Before the guard checked page headers, a long run ended in the fuzzer's
// "hung or terminated" once parquet-go allocated a damaged header's claimed
// size of up to 2 GiB; two million executions now pass.)
func FuzzRead(f *testing.F) {
	f.Add(numbered(f, 20, 7))
	f.Add(encode(f, nestedSchema, nestedRows))
	schema := parquet.NewSchema("t", parquet.Group{"d": parquet.Decimal(2, 38, parquet.FixedLenByteArrayType(16))})
	f.Add(encode(f, schema, []parquet.Row{{lv(parquet.FixedLenByteArrayValue(uuid16), 0, 0, 0)}}))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := pqread.Open(bytes.NewReader(data), int64(len(data)))
		if err == nil {
			err = file.Check()
		}
		for g := 0; err == nil && g < file.RowGroups(); g++ {
			err = file.ReadRowGroup(context.Background(), g, func(int64, []pqread.Value) error { return nil })
		}
		if err != nil && errcode.CodeOf(err) == "" {
			t.Fatalf("error without a code: %v", err)
		}
	})
}

// A row group holding fewer rows than its footer claims is corrupt.
func TestRowCountMismatch(t *testing.T) {
	t.Parallel()
	data := rewriteFooter(t, numbered(t, 10, 10), func(md *format.FileMetaData) {
		md.RowGroups[0].NumRows, md.NumRows = 15, 15
	})
	f := open(t, data)
	rows := 0
	err := f.ReadRowGroup(context.Background(), 0, func(int64, []pqread.Value) error { rows++; return nil })
	wantCode(t, err, errcode.ImportRecordInvalid)
	if rows != 10 {
		t.Errorf("read %d rows before the error, want the 10 there are", rows)
	}
}
