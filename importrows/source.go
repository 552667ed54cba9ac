package importrows

import (
	"context"
	"errors"
	"io"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/errcode"
)

// pageSource reads a text file's bytes by offset. One source serves every
// page step of one attempt; its buffer is the page, reused.
type pageSource interface {
	// read answers up to n bytes from off and whether the data ends within
	// them. The slice is valid until the next read.
	read(ctx context.Context, off int64, n int) ([]byte, bool, error)
	// check refuses a file that changed since the plan; a page calls it
	// once, before its first read.
	check(ctx context.Context) error
	close() error
}

// rangedSource reads pages by byte range: a plain UTF-8 file, where an
// offset in the data is an offset in the object.
type rangedSource struct {
	bucket *blob.Bucket
	key    string
	size   int64
	etag   string
	buf    []byte
	free   func()
}

func (s *rangedSource) read(ctx context.Context, off int64, n int) ([]byte, bool, error) {
	want := min(int64(n), s.size-off)
	if want <= 0 {
		return nil, true, nil
	}
	if int64(cap(s.buf)) < want {
		s.close()
		s.buf, s.free = newPageBuffer(int(want))
	}
	buf := s.buf[:want]
	r, err := s.bucket.NewRangeReader(ctx, s.key, off, want)
	if err != nil {
		return nil, false, err
	}
	defer r.Close()
	if _, err := io.ReadFull(r, buf); err != nil {
		return nil, false, changedOr(err)
	}
	return buf, off+want >= s.size, nil
}

// check refuses a file that changed since the plan: a resumed import must
// not mix two versions of a file.
func (s *rangedSource) check(ctx context.Context) error {
	return unchanged(ctx, s.bucket, s.key, s.size, s.etag)
}

// unchanged compares the object's size and ETag with the plan's.
func unchanged(ctx context.Context, b *blob.Bucket, key string, size int64, etag string) error {
	a, err := b.Stat(ctx, key)
	if err != nil {
		return err
	}
	if a.Size != size || a.ETag != etag {
		return errSourceChanged()
	}
	return nil
}

func (s *rangedSource) close() error {
	if s.free != nil {
		s.free()
		s.buf, s.free = nil, nil
	}
	return nil
}

func errSourceChanged() error {
	return errcode.New(errcode.ImportSourceChanged, "import: the file changed since the import began").
		WithFix("import the new file as a new run; a run reads one version of a file")
}

func changedOr(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return errSourceChanged()
	}
	return err
}

// streamSource reads a file that must be read from its start: compressed or
// re-encoded text, where offsets are offsets in the decoded UTF-8 stream. It
// reads forward; a page behind the stream's position reopens it and skips
// (decoding again, writing nothing), as a resumed attempt does.
type streamSource struct {
	open   func(ctx context.Context) (io.ReadCloser, error)
	verify func(ctx context.Context) error
	rc     io.ReadCloser
	buf    []byte
	free   func()
	lo, hi int   // the window buf[lo:hi] holds the bytes from pos
	pos    int64 // offset of buf[lo]
	eof    bool
}

func (s *streamSource) read(ctx context.Context, off int64, n int) ([]byte, bool, error) {
	if s.rc == nil || off < s.pos {
		if err := s.reopen(ctx); err != nil {
			return nil, false, err
		}
	}
	if cap(s.buf) < n {
		nb, free := newPageBuffer(n)
		s.hi = copy(nb, s.buf[s.lo:s.hi])
		s.release()
		s.buf, s.free, s.lo = nb, free, 0
	}
	s.buf = s.buf[:cap(s.buf)]
	if err := s.skipTo(off); err != nil {
		return nil, false, err
	}
	s.hi = copy(s.buf, s.buf[s.lo:s.hi])
	s.lo = 0
	for s.hi < n && !s.eof {
		if err := s.more(n); err != nil {
			return nil, false, err
		}
	}
	k := min(n, s.hi)
	return s.buf[:k], s.eof && k == s.hi, nil
}

// check refuses a file that changed since the plan, as a ranged read does.
func (s *streamSource) check(ctx context.Context) error { return s.verify(ctx) }

func (s *streamSource) reopen(ctx context.Context) error {
	_ = s.closeStream()
	rc, err := s.open(ctx)
	if err != nil {
		return err
	}
	s.rc, s.lo, s.hi, s.pos, s.eof = rc, 0, 0, 0, false
	return nil
}

// skipTo drops the bytes before off, reading through them if needed.
func (s *streamSource) skipTo(off int64) error {
	for s.pos+int64(s.hi-s.lo) < off && !s.eof {
		s.pos += int64(s.hi - s.lo)
		s.lo, s.hi = 0, 0
		if err := s.more(int(min(off-s.pos, int64(len(s.buf))))); err != nil {
			return err
		}
	}
	drop := int(min(off-s.pos, int64(s.hi-s.lo)))
	s.lo += drop
	s.pos += int64(drop)
	return nil
}

// more reads once into the window, up to buf[:limit].
func (s *streamSource) more(limit int) error {
	m, err := s.rc.Read(s.buf[s.hi:limit])
	s.hi += m
	if err == io.EOF {
		s.eof = true
		return nil
	}
	return err
}

func (s *streamSource) close() error {
	s.release()
	return s.closeStream()
}

func (s *streamSource) closeStream() error {
	if s.rc == nil {
		return nil
	}
	err := s.rc.Close()
	s.rc = nil
	return err
}

// release unmaps the buffer.
func (s *streamSource) release() {
	if s.free != nil {
		s.free()
		s.buf, s.free, s.lo, s.hi = nil, nil, 0, 0
	}
}
