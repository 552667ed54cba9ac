package hostile

import (
	"io"
	"strconv"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// CSVHeader is the header of every text bomb: the columns of [BombTable].
const CSVHeader = "id,note\n"

// BombTable is a table every text bomb fits.
const BombTable = "create table bomb(id bigint, note text)"

// Rows is an io.Reader of size bytes of CSV: the header, then rows with
// an increasing id and a fixed note, a file as compressible as a dull
// export.
func Rows(size int64) io.Reader {
	return &rowReader{left: size, next: []byte(CSVHeader)}
}

// Repeated is an io.Reader of size bytes of CSV whose rows are all "1,x":
// what a bomb inflates to.
func Repeated(size int64) io.Reader {
	return &rowReader{left: size, next: []byte(CSVHeader), same: true}
}

type rowReader struct {
	left int64
	id   int64
	next []byte
	buf  []byte
	same bool
}

func (r *rowReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) && r.left > 0 {
		if len(r.next) == 0 {
			r.next = r.row()
		}
		m := copy(p[n:min(len(p), n+int(min(r.left, int64(len(p)-n))))], r.next)
		r.next, n, r.left = r.next[m:], n+m, r.left-int64(m)
	}
	if n == 0 && r.left == 0 {
		return 0, io.EOF
	}
	return n, nil
}

func (r *rowReader) row() []byte {
	if r.same {
		return []byte("1,x\n")
	}
	r.id++
	r.buf = strconv.AppendInt(r.buf[:0], r.id, 10)
	return append(r.buf, ",a dull note that every row of the export repeats\n"...)
}

// Zstd writes what r holds to w as one zstd stream with a window of
// window bytes (at most 512 MiB, zstd --long=29).
func Zstd(w io.Writer, r io.Reader, window int) error {
	z, err := zstd.NewWriter(w, zstd.WithWindowSize(window), zstd.WithEncoderConcurrency(1),
		zstd.WithEncoderLevel(zstd.SpeedFastest))
	if err != nil {
		return err
	}
	if _, err := io.Copy(z, r); err != nil {
		return err
	}
	return z.Close()
}

// Gzip writes what r holds to w as one gzip stream at the best
// compression.
func Gzip(w io.Writer, r io.Reader) error {
	z, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := io.Copy(z, r); err != nil {
		return err
	}
	return z.Close()
}

// ClaimWindow rewrites the window descriptor of zstd stream z, one that
// names its window (a stream longer than a block), to ask for 2^log bytes:
// 30 is zstd --long=30's gigabyte.
func ClaimWindow(z []byte, log uint8) []byte {
	if len(z) > 5 && z[4]&0x20 == 0 {
		z[5] = (log - 10) << 3
	}
	return z
}
