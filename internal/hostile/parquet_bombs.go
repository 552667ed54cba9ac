package hostile

import (
	"bytes"
	"encoding/binary"
	"io"

	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// ParquetTable is a table every Parquet bomb fits: a text column note
// and a bigint column n, each nullable so that a file may hold either.
const ParquetTable = "create table bomb(note text, n bigint)"

// valueBytes is one plain-encoded note: a 4-byte length and 100 bytes.
const valueBytes = 104

// notes is an io.Reader of n plain-encoded notes.
func notes(n int64) io.Reader {
	one := binary.LittleEndian.AppendUint32(nil, valueBytes-4)
	one = append(one, bytes.Repeat([]byte("n"), valueBytes-4)...)
	return &cycle{b: one, left: n * valueBytes}
}

type cycle struct {
	b    []byte
	at   int
	left int64
}

func (c *cycle) Read(p []byte) (int, error) {
	if c.left == 0 {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) && c.left > 0 {
		m := copy(p[n:min(len(p), n+int(min(c.left, int64(len(p)-n))))], c.b[c.at:])
		n, c.left, c.at = n+m, c.left-int64(m), (c.at+m)%len(c.b)
	}
	return n, nil
}

// zstdOf compresses r into one zstd frame with a 1 MiB window.
func zstdOf(r io.Reader) []byte {
	var buf bytes.Buffer
	if err := Zstd(&buf, r, 1<<20); err != nil {
		panic(err) // writing to memory
	}
	return buf.Bytes()
}

// notePage is a zstd data page of n notes that inflates to claimed bytes
// of which its header declares declared.
func notePage(n int64, body []byte, declared int64) Page {
	return Page{Header: format.PageHeader{Type: format.DataPage, UncompressedPageSize: int32(declared),
		DataPageHeader: thrift.New(format.DataPageHeader{NumValues: int32(n), Encoding: format.Plain,
			DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE})}, Body: body}
}

func noteColumn(name string, pages ...Page) Column {
	return Column{Name: name, Type: format.ByteArray, Text: true, Codec: format.Zstd, Pages: pages}
}

// BigPage is a file whose one page honestly holds size bytes of notes,
// compressed a thousandfold: 346 MiB of them take a few hundred KiB.
func BigPage(size int64) []byte {
	n := size / valueBytes
	return Parquet(n, noteColumn("note", notePage(n, zstdOf(notes(n)), n*valueBytes)))
}

// BigPageSmallFooter is [BigPage] with a footer that declares the chunk a
// KiB, so that a reader trusting the footer's sizes meets the page
// unwarned.
func BigPageSmallFooter(size int64) []byte {
	n := size / valueBytes
	c := noteColumn("note", notePage(n, zstdOf(notes(n)), n*valueBytes))
	c.Declared = 1 << 10
	return Parquet(n, c)
}

// InflatingPage is a file whose one page declares ten notes (1,040 bytes)
// and inflates to size bytes of them.
func InflatingPage(size int64) []byte {
	return Parquet(10, noteColumn("note", notePage(10, zstdOf(notes(size/valueBytes)), 10*valueBytes)))
}

// ManyValues is a file of n rows of a bigint column, every one the same:
// a one-value dictionary and one page of n indexes in one run of a few
// bytes, which a reader decodes to n indexes and n values.
func ManyValues(n int32) []byte {
	dict := Page{Header: format.PageHeader{Type: format.DictionaryPage, UncompressedPageSize: 8,
		DictionaryPageHeader: thrift.New(format.DictionaryPageHeader{NumValues: 1, Encoding: format.Plain})},
		Body: binary.LittleEndian.AppendUint64(nil, 7)}
	run := binary.AppendUvarint([]byte{1}, uint64(n)<<1) // bit width 1, one RLE run of n zeros
	run = append(run, 0)
	data := Page{Header: format.PageHeader{Type: format.DataPage, UncompressedPageSize: int32(len(run)),
		DataPageHeader: thrift.New(format.DataPageHeader{NumValues: n, Encoding: format.RLEDictionary,
			DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE})}, Body: run}
	return Parquet(int64(n), Column{Name: "n", Type: format.Int64, Codec: format.Uncompressed, Pages: []Page{dict, data}})
}

// Wide is a file of cols text columns, each one honest page of size bytes
// of notes: alone each is modest, together they are not.
func Wide(cols int, size int64) []byte {
	n := size / valueBytes
	body := zstdOf(notes(n))
	var cs []Column
	for i := range cols {
		cs = append(cs, noteColumn("c"+string(rune('a'+i)), notePage(n, body, n*valueBytes)))
	}
	return Parquet(n, cs...)
}

// SnappyClaim is a file whose one snappy page claims (in snappy's own
// header) to decode to 4 GiB.
func SnappyClaim() []byte {
	body := binary.AppendUvarint(nil, 1<<32-1)
	body = append(body, bytes.Repeat([]byte{0}, 64)...)
	c := noteColumn("note", notePage(1, body, valueBytes))
	c.Codec = format.Snappy
	return Parquet(1, c)
}

// LZ4Garbage is a file whose one LZ4_RAW page is not LZ4: parquet-go's
// codec takes any failure for a short buffer and doubles it for ever.
func LZ4Garbage() []byte {
	body := bytes.Repeat([]byte{0xf0, 0xff}, 32)
	c := noteColumn("note", notePage(1, body, valueBytes))
	c.Codec = format.Lz4Raw
	return Parquet(1, c)
}

// FooterClaim is a file of a hundred bytes whose footer claims two billion
// row groups: parquet-go's decoder makes that list (180 GB) before it
// reads an element.
func FooterClaim() []byte {
	footer := []byte{
		0x15, 0x02, // 1: version, i32 1
		0x19, 0x1c, 0x48, 0x01, 's', 0x00, // 2: schema, a list of one struct named "s"
		0x16, 0x00, // 3: num_rows, i64 0
		0x19, 0xfc, 0xff, 0xff, 0xff, 0xff, 0x07, // 4: row_groups, a list of 2^31-1 structs
		0x00,
	}
	return Trailer([]byte("PAR1"), footer)
}

// CorruptFooter is a file whose footer is noise.
func CorruptFooter() []byte {
	noise := make([]byte, 96)
	for i := range noise {
		noise[i] = byte(i*37 + 11)
	}
	return Trailer([]byte("PAR1"), noise)
}

// WindowPage is a file whose one zstd page was written with a window of
// window bytes (at most 512 MiB).
func WindowPage(window int) []byte {
	n := int64(2 << 20 / valueBytes)
	var body bytes.Buffer
	if err := Zstd(&body, notes(n), window); err != nil {
		panic(err)
	}
	return Parquet(n, noteColumn("note", notePage(n, body.Bytes(), n*valueBytes)))
}
