package pqread

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"slices"

	"github.com/parquet-go/parquet-go"
)

var (
	errNotParquet = errors.New("not a parquet file")
	errEncrypted  = errors.New("parquet file is encrypted")
	errFooterLen  = errors.New("footer length does not fit the file")
	errChunkRange = errors.New("a column chunk lies outside the file's pages or across another")
)

// newGuard reads the file's tail (the footer and the trailer after it)
// and checks it before parquet-go decodes any of it: the magic, a length
// that fits the file, a footer within the memory limit whose every claim
// skim finds honest.
func newGuard(src *sourceReader, size int64, lim Limits) (*guard, error) {
	if size < 2*headerMagic+8 {
		return nil, corrupt(errNotParquet, "the footer")
	}
	var trailer [8]byte
	if _, err := src.ReadAt(trailer[:], size-8); err != nil {
		return nil, src.blame(corrupt(err, "the footer"))
	}
	switch {
	case bytes.Equal(trailer[4:], []byte("PARE")):
		return nil, corrupt(errEncrypted, "the footer")
	case !bytes.Equal(trailer[4:], []byte("PAR1")):
		return nil, corrupt(errNotParquet, "the footer")
	}
	n := int64(binary.LittleEndian.Uint32(trailer[:4]))
	if n > size-8-headerMagic {
		return nil, corrupt(errFooterLen, "the footer")
	}
	if n > lim.memory() {
		return nil, tooLarge("the footer", n, lim.memory(), "--max-parquet-memory")
	}
	tail := make([]byte, n+8)
	if _, err := src.ReadAt(tail, size-8-n); err != nil {
		return nil, src.blame(corrupt(err, "the footer"))
	}
	if _, est, err := skimStruct(tail[:n]); err != nil {
		return nil, corrupt(err, "the footer")
	} else if est > lim.memory() {
		return nil, tooLarge("the footer", est, lim.memory(), "--max-parquet-memory")
	}
	return &guard{src: src, lim: lim, size: size, tail: tail, tailOff: size - 8 - n}, nil
}

// watch sets a chunkGuard on every column chunk of pf, refusing a chunk
// outside the pages or across another, and a file whose pages would
// inflate past the limits, by the footer's sizes.
func (g *guard) watch(pf *parquet.File) error {
	widths := leafWidths(pf.Root())
	var decoded int64
	for i, rg := range pf.Metadata().RowGroups {
		for j, cc := range rg.Columns {
			md := cc.MetaData
			start := md.DataPageOffset
			if md.DictionaryPageOffset != 0 {
				start = md.DictionaryPageOffset
			}
			c := &chunkGuard{g: g, group: i, col: j, start: start, end: start + md.TotalCompressedSize,
				codec: md.Codec, declared: md.TotalUncompressedSize}
			if j < len(widths) {
				c.width = widths[j]
			}
			if md.TotalCompressedSize < 0 || md.TotalUncompressedSize < 0 || start < headerMagic || c.end > g.tailOff {
				return corrupt(errChunkRange, "the footer")
			}
			decoded += md.TotalUncompressedSize
			c.restart()
			g.chunks = append(g.chunks, c)
		}
	}
	slices.SortFunc(g.chunks, func(a, b *chunkGuard) int { return cmp.Compare(a.start, b.start) })
	for i := 1; i < len(g.chunks); i++ {
		if g.chunks[i].start < g.chunks[i-1].end {
			return corrupt(errChunkRange, "the footer")
		}
	}
	return g.lim.inflates(g.size, decoded)
}

// leafWidths answers the decoded size of one value of each leaf column, in
// the order of a row group's column chunks.
func leafWidths(root *parquet.Column) []int64 {
	var widths []int64
	var walk func(c *parquet.Column)
	walk = func(c *parquet.Column) {
		if c.Leaf() {
			if i := c.Index(); i >= 0 {
				widths = append(widths, make([]int64, max(0, i+1-len(widths)))...)
				widths[i] = valueWidth(c.Type())
			}
			return
		}
		for _, child := range c.Columns() {
			walk(child)
		}
	}
	walk(root)
	return widths
}

// valueWidth is the decoded size of one value of t: its width for a fixed
// type, an offset's four bytes for a byte array (its bytes are the page's).
func valueWidth(t parquet.Type) int64 {
	switch t.Kind() {
	case parquet.Boolean:
		return 1
	case parquet.Int32, parquet.Float:
		return 4
	case parquet.Int64, parquet.Double:
		return 8
	case parquet.Int96:
		return 12
	case parquet.FixedLenByteArray:
		return int64(t.Length())
	}
	return 4
}
