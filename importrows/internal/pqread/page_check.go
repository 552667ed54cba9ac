package pqread

import (
	"errors"
	"strconv"

	"github.com/parquet-go/parquet-go/format"

	"github.com/pipekit/pipe/errcode"
)

// pageAt is the header of the page at off in a chunk, being checked.
type pageAt struct {
	c    *chunkGuard
	h    *format.PageHeader
	off  int64
	hlen int
}

var (
	errNegative = errors.New("page header has a negative size or count")
	errOverrun  = errors.New("page runs past the end of its column chunk")
	errPageType = errors.New("page is neither a data page nor a dictionary")
	errLevels   = errors.New("page's levels are longer than the page")
)

// check refuses a page that does not fit its chunk or the footer's sizes,
// or that would need more memory than the limits allow (alone, or with the
// pages the row group holds open), before any of it is read.
func (p pageAt) check() error {
	h, c, lim := p.h, p.c, p.c.g.lim
	if h.CompressedPageSize < 0 || h.UncompressedPageSize < 0 {
		return c.corrupt(errNegative)
	}
	if p.off+int64(p.hlen)+int64(h.CompressedPageSize) > c.end {
		return c.corrupt(errOverrun)
	}
	values, dict, err := p.values()
	if err != nil {
		return c.corrupt(err)
	}
	c.seen += int64(h.UncompressedPageSize)
	if c.seen > c.declared {
		return errcode.New(errcode.DecompressedTooLarge, "parquet file: %s inflates past the size the footer declares for its column chunk", c.where()).
			WithFix("the file is damaged or was made to inflate; re-export it")
	}
	need := p.need(values, dict)
	if need > lim.page() {
		return tooLarge(c.where(), need, lim.page(), "--max-parquet-page-bytes")
	}
	if dict {
		c.dictMem = need
	} else {
		c.pageMem = need
	}
	if held := c.g.held(); held > lim.memory() {
		return tooLarge("row group "+strconv.Itoa(c.group)+"'s open pages (one of each column, with its dictionary)",
			held, lim.memory(), "--max-parquet-memory")
	}
	return nil
}

// values answers how many values the page holds and whether it is a
// dictionary.
func (p pageAt) values() (n int64, dict bool, err error) {
	switch h := p.h; h.Type {
	case format.DataPage:
		if !h.DataPageHeader.Valid {
			return 0, false, errPageType
		}
		n = int64(h.DataPageHeader.V.NumValues)
	case format.DataPageV2:
		v2 := h.DataPageHeaderV2.V
		if !h.DataPageHeaderV2.Valid {
			return 0, false, errPageType
		}
		levels := int64(v2.RepetitionLevelsByteLength) + int64(v2.DefinitionLevelsByteLength)
		if v2.RepetitionLevelsByteLength < 0 || v2.DefinitionLevelsByteLength < 0 ||
			levels > int64(h.CompressedPageSize) || levels > int64(h.UncompressedPageSize) {
			return 0, false, errLevels
		}
		n = int64(v2.NumValues)
	case format.DictionaryPage:
		if !h.DictionaryPageHeader.Valid {
			return 0, false, errPageType
		}
		n, dict = int64(h.DictionaryPageHeader.V.NumValues), true
	default:
		return 0, false, errPageType
	}
	if n < 0 {
		return 0, false, errNegative
	}
	return n, dict, nil
}

// need estimates the memory reading the page takes: its compressed bytes
// twice (the guard's and parquet-go's), its uncompressed bytes, and per
// value a definition and a repetition level and the decoded value (a
// dictionary index or a byte array's offset takes four bytes). A
// dictionary is copied once more, with an offset per value.
func (p pageAt) need(values int64, dict bool) int64 {
	h := p.h
	n := int64(p.hlen) + 2*int64(h.CompressedPageSize) + int64(h.UncompressedPageSize)
	if dict {
		return n + int64(h.UncompressedPageSize) + 4*values
	}
	return n + values*(2+max(4, p.c.width))
}

// trial decompresses the page's body (past the levels of a v2 page, which
// are not compressed) without keeping it, to refuse one that inflates past
// its header's size before parquet-go decompresses it into a buffer that
// grows to fit.
func (p pageAt) trial(body []byte) error {
	want := int64(p.h.UncompressedPageSize)
	if v2 := p.h.DataPageHeaderV2; v2.Valid {
		if v2.V.IsCompressed.Valid && !v2.V.IsCompressed.V {
			return nil
		}
		levels := int64(v2.V.RepetitionLevelsByteLength) + int64(v2.V.DefinitionLevelsByteLength)
		body, want = body[levels:], want-levels
	}
	return p.c.g.trial.check(p.c, body, want)
}
