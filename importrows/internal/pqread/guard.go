package pqread

import (
	"io"
	"sort"
	"strconv"
	"sync"

	"github.com/pipekit/pipe/errcode"
)

// guard is the io.ReaderAt parquet-go reads the file through, so that no
// byte of it reaches parquet-go unchecked. It answers the header magic
// from the source, the footer and trailer from the bytes [readTail]
// checked, a column chunk's bytes only once the page they belong to is
// checked ([chunkGuard]), and refuses any other read. Serving the checked
// bytes themselves, rather than checking and then letting parquet-go read
// again, leaves nothing to a file that changes between the two.
type guard struct {
	src     *sourceReader
	lim     Limits
	size    int64
	tail    []byte // the footer and the trailer
	tailOff int64
	chunks  []*chunkGuard // sorted by start
	trial   trial
	mu      sync.Mutex
}

// headerMagic is the length of the magic at the start of the file.
const headerMagic = 4

func (g *guard) ReadAt(p []byte, off int64) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	n := 0
	for n < len(p) {
		m, err := g.readPart(p[n:], off+int64(n))
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// readPart serves a prefix of p from the one section off falls in.
func (g *guard) readPart(p []byte, off int64) (int, error) {
	switch {
	case off < 0:
		return 0, errOutside
	case off >= g.size:
		return 0, io.EOF
	case off >= g.tailOff:
		return copy(p, g.tail[off-g.tailOff:]), nil
	case off < headerMagic:
		return g.src.ReadAt(p[:min(int64(len(p)), headerMagic-off)], off)
	}
	c := g.chunkAt(off)
	if c == nil {
		return 0, errOutside
	}
	n, err := c.read(p, off)
	if err != nil && err != io.EOF {
		if e, ok := errcode.As(err); ok {
			e.WithMeta(MetaRowGroup, strconv.Itoa(c.group))
		}
		err = g.src.refuse(err)
	}
	return n, err
}

// chunkAt answers the column chunk holding off, if any.
func (g *guard) chunkAt(off int64) *chunkGuard {
	i := sort.Search(len(g.chunks), func(i int) bool { return g.chunks[i].end > off })
	if i < len(g.chunks) && g.chunks[i].start <= off {
		return g.chunks[i]
	}
	return nil
}

// begin starts the reading of a row group: every chunk walks again from
// its start, holding nothing.
func (g *guard) begin() {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, c := range g.chunks {
		c.restart()
	}
}

// held answers the memory the open pages of every chunk need together.
func (g *guard) held() int64 {
	var n int64
	for _, c := range g.chunks {
		n += c.pageMem + c.dictMem
	}
	return n
}
