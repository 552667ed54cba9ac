package pqread

import (
	"errors"
	"io"
	"strconv"

	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// lookahead is how much a page's first read takes: its header and, for a
// small page, its body and the pages after it, in one ranged read. It is
// per column, as parquet-go's own read buffer is.
const lookahead = 8 << 10

// chunkGuard walks one column chunk's pages ahead of parquet-go: a page's
// header is decoded only once skim found it honest, checked against the
// limits and the footer, its body read and trial-decompressed, and only
// then are its bytes served. It holds the current page's bytes (and those
// read after them), nothing before.
type chunkGuard struct {
	g          *guard
	group, col int
	start, end int64 // the chunk's byte range, as parquet-go reads it
	codec      format.CompressionCodec
	width      int64 // the decoded size of one value
	declared   int64 // the uncompressed bytes its footer declares

	win     []byte // bytes of the file from winOff
	winOff  int64
	checked int64 // the end of the checked pages: bytes below it are served
	page    int   // the number of the page after the last checked
	seen    int64 // the uncompressed bytes of the pages checked
	pageMem int64 // what the last checked data page needs
	dictMem int64 // what the chunk's dictionary needs
}

// read serves p from off, a byte of the chunk, up to the end of the
// checked page that holds off.
func (c *chunkGuard) read(p []byte, off int64) (int, error) {
	if off < c.winOff {
		c.restart() // parquet-go went back: the pages are checked again
	}
	for off >= c.checked {
		if c.checked >= c.end {
			return 0, io.EOF
		}
		if err := c.advance(); err != nil {
			return 0, err
		}
	}
	return copy(p, c.win[off-c.winOff:c.checked-c.winOff]), nil
}

// restart forgets the walk, and the bytes it held: the next read checks
// from the first page.
func (c *chunkGuard) restart() {
	c.win, c.winOff, c.checked, c.page, c.seen = nil, c.start, c.start, 0, 0
	c.pageMem, c.dictMem = 0, 0
}

// advance checks the page at c.checked and makes its bytes servable.
func (c *chunkGuard) advance() error {
	off := c.checked
	h, hlen, err := c.header(off)
	if err != nil {
		return err
	}
	p := pageAt{c: c, h: h, off: off, hlen: hlen}
	if err := p.check(); err != nil {
		return err
	}
	total := int64(hlen) + int64(h.CompressedPageSize)
	if err := c.fill(off, total); err != nil {
		return err
	}
	body := c.win[off-c.winOff+int64(hlen) : off-c.winOff+total]
	if err := p.trial(body); err != nil {
		return err
	}
	c.checked, c.page = off+total, c.page+1
	return nil
}

// header reads, skims and decodes the page header at off, reading more of
// the chunk while skim finds it cut short.
func (c *chunkGuard) header(off int64) (*format.PageHeader, int, error) {
	want := int64(256)
	for {
		if err := c.fill(off, min(want, c.end-off)); err != nil {
			return nil, 0, err
		}
		b := c.win[off-c.winOff:]
		n, est, err := skimStruct(b)
		switch {
		case err == errShort && int64(len(b)) < min(maxHeaderBytes, c.end-off):
			want = 2 * int64(len(b))
			continue
		case err == errShort && int64(len(b)) >= maxHeaderBytes:
			return nil, 0, c.corrupt(errHeaderTooLong)
		case err != nil:
			return nil, 0, c.corrupt(err)
		case est > c.g.lim.page():
			return nil, 0, tooLarge(c.where()+"'s header", est, c.g.lim.page(), "--max-parquet-page-bytes")
		}
		h := new(format.PageHeader)
		if err := thrift.Unmarshal(new(thrift.CompactProtocol), b[:n], h); err != nil {
			return nil, 0, c.corrupt(err)
		}
		return h, n, nil
	}
}

// fill makes the window hold n bytes from off (a page's start, or inside
// it), reading what it lacks from the source with some lookahead, and
// dropping what lies before off.
func (c *chunkGuard) fill(off, n int64) error {
	if off < c.winOff || off > c.winOff+int64(len(c.win)) {
		c.win, c.winOff = c.win[:0], off
	}
	if drop := off - c.winOff; drop > 0 {
		c.win = c.win[:copy(c.win, c.win[drop:])]
		c.winOff = off
	}
	have := int64(len(c.win))
	if have >= n {
		return nil
	}
	want := min(max(n, lookahead), c.end-off)
	if int64(cap(c.win)) < want {
		grown := make([]byte, have, want)
		copy(grown, c.win)
		c.win = grown
	}
	c.win = c.win[:want]
	got, err := c.g.src.ReadAt(c.win[have:], off+have)
	c.win = c.win[:have+int64(got)]
	if int64(len(c.win)) < n {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return c.corrupt(err)
	}
	return nil
}

var errHeaderTooLong = errors.New("page header is longer than 1 MiB")

// where names the chunk's next page for a message.
func (c *chunkGuard) where() string {
	return "page " + strconv.Itoa(c.page) + " of column " + strconv.Itoa(c.col) + " in row group " + strconv.Itoa(c.group)
}

// corrupt reports a page that cannot be read.
func (c *chunkGuard) corrupt(cause error) error {
	return corrupt(cause, c.where())
}
