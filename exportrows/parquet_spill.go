package exportrows

import (
	"io"
	"os"
	"sync"
)

// spillPool is where the Parquet writer keeps a row group's written pages
// until the row group is flushed (a column chunk must be contiguous in the
// file, so every page of a row group waits for the whole group). parquet-go
// keeps them on the heap by default, which made a row group's compressed
// pages — megabytes — part of the export's memory; here they wait in
// temporary files instead, in the page cache rather than the process.
//
// Each file is unlinked as soon as it is made (where the system allows), so
// a killed export leaves nothing behind. Files are reused across row groups
// and closed with the pool.
type spillPool struct {
	dir  string
	mu   sync.Mutex
	free []*spillFile
	all  []*spillFile
}

// spillFile is one buffer of the pool; name is set while the file is still
// linked (a system that cannot unlink an open file).
type spillFile struct {
	*os.File
	name string
}

func newSpillPool(dir string) *spillPool { return &spillPool{dir: dir} }

// GetBuffer answers a free file, rewound, or a new one. A file that cannot
// be made is an error on the writer's first write; a full disk or a
// refusing directory is coded (see spillFailure).
func (p *spillPool) GetBuffer() io.ReadWriteSeeker {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.free); n > 0 {
		f := p.free[n-1]
		p.free = p.free[:n-1]
		return f
	}
	f, err := os.CreateTemp(p.dir, "pipe-export-*.pages")
	if err != nil {
		return failedBuffer{spillFailure(err)}
	}
	sf := &spillFile{File: f, name: f.Name()}
	if os.Remove(f.Name()) == nil {
		sf.name = ""
	}
	p.all = append(p.all, sf)
	return sf
}

// PutBuffer empties a file and keeps it for the next row group.
func (p *spillPool) PutBuffer(b io.ReadWriteSeeker) {
	sf, ok := b.(*spillFile)
	if !ok {
		return
	}
	if sf.Truncate(0) != nil {
		return // a file that will not empty is not reused; close frees it
	}
	_, _ = sf.Seek(0, io.SeekStart)
	p.mu.Lock()
	p.free = append(p.free, sf)
	p.mu.Unlock()
}

// close closes (and, where it is still linked, removes) every file.
func (p *spillPool) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, f := range p.all {
		_ = f.Close()
		if f.name != "" {
			_ = os.Remove(f.name)
		}
	}
	p.all, p.free = nil, nil
}

// failedBuffer fails every operation with the error that kept a file from
// being made.
type failedBuffer struct{ err error }

func (b failedBuffer) Read([]byte) (int, error)       { return 0, b.err }
func (b failedBuffer) Write([]byte) (int, error)      { return 0, b.err }
func (b failedBuffer) Seek(int64, int) (int64, error) { return 0, b.err }
