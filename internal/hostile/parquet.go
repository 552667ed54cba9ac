package hostile

import (
	"bytes"
	"encoding/binary"

	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// A Column is one required leaf column of a hand-written Parquet file, in
// one row group: its pages are written as they are given, whatever they
// claim.
type Column struct {
	Name  string
	Type  format.Type
	Text  bool // annotated UTF8: a BYTE_ARRAY read as text
	Codec format.CompressionCodec
	Pages []Page
	// Declared is the uncompressed size the footer declares for the
	// chunk; 0 declares the pages' own.
	Declared int64
}

// A Page is one page: its header as it is written (a zero compressed size
// is the body's length) and its body.
type Page struct {
	Header format.PageHeader
	Body   []byte
}

// Parquet writes a file of one row group of rows rows holding cols.
func Parquet(rows int64, cols ...Column) []byte {
	var out bytes.Buffer
	out.WriteString("PAR1")
	md := format.FileMetaData{Version: 1, NumRows: rows, Schema: []format.SchemaElement{
		{Name: "schema", NumChildren: thrift.New(int32(len(cols)))},
	}}
	rg := format.RowGroup{NumRows: rows}
	for _, c := range cols {
		md.Schema = append(md.Schema, c.element())
		rg.Columns = append(rg.Columns, c.write(&out))
	}
	md.RowGroups = []format.RowGroup{rg}
	return footer(&out, &md)
}

// footer appends md and the trailer to out and answers the file.
func footer(out *bytes.Buffer, md *format.FileMetaData) []byte {
	raw, err := thrift.Marshal(new(thrift.CompactProtocol), md)
	if err != nil {
		panic(err) // the metadata is the package's own
	}
	return Trailer(out.Bytes(), raw)
}

// Trailer appends footer, its length and the magic to file.
func Trailer(file, footer []byte) []byte {
	file = append(file, footer...)
	file = binary.LittleEndian.AppendUint32(file, uint32(len(footer)))
	return append(file, "PAR1"...)
}

func (c Column) element() format.SchemaElement {
	e := format.SchemaElement{Name: c.Name, Type: thrift.New(c.Type),
		RepetitionType: thrift.New(format.Required)}
	if c.Text {
		e.ConvertedType = thrift.New(deprecated.UTF8)
	}
	return e
}

// write appends the column's pages to out and answers its chunk.
func (c Column) write(out *bytes.Buffer) format.ColumnChunk {
	md := format.ColumnMetaData{Type: c.Type, PathInSchema: []string{c.Name}, Codec: c.Codec,
		Encoding: []format.Encoding{format.Plain, format.RLE, format.RLEDictionary}}
	start := int64(out.Len())
	for _, p := range c.Pages {
		h := p.Header
		if h.CompressedPageSize == 0 {
			h.CompressedPageSize = int32(len(p.Body))
		}
		raw, err := thrift.Marshal(new(thrift.CompactProtocol), &h)
		if err != nil {
			panic(err)
		}
		switch {
		case h.Type == format.DictionaryPage:
			md.DictionaryPageOffset = int64(out.Len())
		case md.DataPageOffset == 0:
			md.DataPageOffset = int64(out.Len())
			md.NumValues += int64(h.DataPageHeader.V.NumValues)
		default:
			md.NumValues += int64(h.DataPageHeader.V.NumValues)
		}
		md.TotalUncompressedSize += int64(len(raw)) + int64(h.UncompressedPageSize)
		out.Write(raw)
		out.Write(p.Body)
	}
	md.TotalCompressedSize = int64(out.Len()) - start
	if c.Declared != 0 {
		md.TotalUncompressedSize = c.Declared
	}
	return format.ColumnChunk{FileOffset: start, MetaData: md}
}
