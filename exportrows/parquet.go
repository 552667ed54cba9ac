package exportrows

import (
	"encoding/binary"
	"io"
	"math"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/errcode"
)

// rowGroupBytes ends a row group early once its values pass 16 MiB: a
// row group is buffered whole before it is written, and rows may be wide.
const rowGroupBytes = 16 << 20

// pageBytes is the size of a Parquet page (parquet-go's default is 256
// KiB): the writer keeps a few buffers of it per column, so smaller pages
// halve the encoder's heap for files some 3% larger.
const pageBytes = 64 << 10

// batchRows is how many rows the encoder hands the writer at once (the
// writer's own chunk).
const batchRows = 64

// parquetEncoder writes rows as they come into a Parquet file, a row group
// every RowGroupRows rows (or rowGroupBytes). It hands them on in batches
// of 64, their bytes copied: the connection reuses its buffers row by row.
type parquetEncoder struct {
	w         *parquet.GenericWriter[any] // written through WriteRows only
	spill     *spillPool                  // where a row group's pages wait for its flush
	cols      []column
	batch     []parquet.Row // batchRows rows, each reused
	n         int           // rows in the batch
	arena     []byte        // the batch's copied bytes
	maxRows   int
	rows, raw int // in the current row group
}

// newParquetEncoder answers an encoder to [parquetEncoder.reset] onto each
// page's writer.
func newParquetEncoder(cols []column, set Settings) (*parquetEncoder, error) {
	cols = exportedOf(cols)
	codec, err := parquetCodec(set.Compression)
	if err != nil {
		return nil, err
	}
	spill := newSpillPool("")
	pw := parquet.NewGenericWriter[any](io.Discard, parquetSchema(cols), parquet.Compression(codec),
		parquet.PageBufferSize(pageBytes), parquet.ColumnPageBuffers(spill))
	e := &parquetEncoder{w: pw, spill: spill, cols: cols, batch: make([]parquet.Row, batchRows), maxRows: set.RowGroupRows}
	e.arena = make([]byte, 0, 64<<10)
	return e, nil
}

// reset starts a new file written into w.
func (e *parquetEncoder) reset(w io.Writer) {
	e.w.Reset(w)
	e.n, e.rows, e.raw, e.arena = 0, 0, 0, e.arena[:0]
}

func (e *parquetEncoder) row(vals [][]byte) error {
	r, size := e.batch[e.n][:0], 0
	for i := range e.cols {
		var err error
		if r, err = e.cell(r, i, vals[i]); err != nil {
			return err
		}
		size += len(vals[i])
	}
	e.batch[e.n], e.n = r, e.n+1
	e.rows, e.raw = e.rows+1, e.raw+size
	if e.rows < e.maxRows && e.raw < rowGroupBytes {
		if e.n < batchRows {
			return nil
		}
		return e.writeBatch()
	}
	e.rows, e.raw = 0, 0
	if err := e.writeBatch(); err != nil {
		return err
	}
	return e.w.Flush()
}

// writeBatch hands the batch to the writer, which copies it.
func (e *parquetEncoder) writeBatch() error {
	_, err := e.w.WriteRows(e.batch[:e.n])
	e.n, e.arena = 0, e.arena[:0]
	return err
}

// keep copies v into the batch's arena. A copy made before the arena grew
// stays valid: it still points into the array it was made in.
func (e *parquetEncoder) keep(v []byte) []byte {
	start := len(e.arena)
	e.arena = append(e.arena, v...)
	return e.arena[start:len(e.arena):len(e.arena)]
}

func parquetCodec(c blob.Compression) (compress.Codec, error) {
	switch c {
	case blob.CompressionGzip:
		return &parquet.Gzip, nil
	case blob.CompressionZstd:
		return newPageZstd()
	}
	return &parquet.Uncompressed, nil
}

// cell appends column i's value v: a NULL, a LIST, or one value.
func (e *parquetEncoder) cell(r parquet.Row, i int, v []byte) (parquet.Row, error) {
	c := &e.cols[i]
	switch {
	case v == nil:
		return append(r, parquet.NullValue().Level(0, 0, i)), nil
	case c.kind == kArray:
		return e.appendList(r, c, i, v)
	}
	pv, err := e.value(c, c.kind, c.decimal(), v)
	return append(r, pv.Level(0, 1, i)), err
}

// appendList appends a LIST: one value per element (repetition 1 after the
// first), definition 3 for an element, 2 for a NULL one, 1 for an empty list.
func (e *parquetEncoder) appendList(r parquet.Row, c *column, col int, v []byte) (parquet.Row, error) {
	n := 0
	err := eachElem(c, v, func(el []byte) error {
		rep := min(n, 1)
		n++
		if el == nil {
			r = append(r, parquet.NullValue().Level(rep, 2, col))
			return nil
		}
		pv, err := e.value(c, c.elem, false, el)
		r = append(r, pv.Level(rep, 3, col))
		return err
	})
	if n == 0 {
		r = append(r, parquet.NullValue().Level(0, 1, col))
	}
	return r, err
}

// value answers one non-NULL value of kind k of column c.
func (e *parquetEncoder) value(c *column, k kind, decimal bool, v []byte) (parquet.Value, error) {
	switch k {
	case kBool:
		return parquet.BooleanValue(v[0] != 0), nil
	case kInt2:
		return parquet.Int32Value(int32(int16(binary.BigEndian.Uint16(v)))), nil
	case kInt4:
		return parquet.Int32Value(int32(binary.BigEndian.Uint32(v))), nil
	case kInt8:
		return parquet.Int64Value(int64(binary.BigEndian.Uint64(v))), nil
	case kFloat4:
		return parquet.FloatValue(math.Float32frombits(binary.BigEndian.Uint32(v))), nil
	case kFloat8:
		return parquet.DoubleValue(math.Float64frombits(binary.BigEndian.Uint64(v))), nil
	case kUUID:
		return parquet.FixedLenByteArrayValue(e.keep(v)), nil
	case kDate:
		d := int32(binary.BigEndian.Uint32(v))
		if d == math.MaxInt32 || d == math.MinInt32 {
			return parquet.Value{}, infinite(c)
		}
		return parquet.Int32Value(d + pgEpochDays), nil
	case kTimestamp, kTimestamptz:
		switch us := int64(binary.BigEndian.Uint64(v)); {
		case us == math.MinInt64 || us == math.MaxInt64:
			return parquet.Value{}, infinite(c)
		case us > math.MaxInt64-pgEpochMicros:
			return parquet.Value{}, errcode.New(errcode.ExportValueUnsupported, "export: column %s holds a time after 294247-01-10, past what Parquet's TIMESTAMP (microseconds since 1970 in 64 bits) holds", c.Name).
				WithFix("filter such times out, or choose csv or ndjson")
		default:
			return parquet.Int64Value(us + pgEpochMicros), nil
		}
	case kNumeric:
		if decimal {
			return decimalValue(c, v, &e.arena)
		}
	}
	return parquet.ByteArrayValue(e.keep(v)), nil
}

func infinite(c *column) error {
	return errcode.New(errcode.ExportValueUnsupported, "export: column %s holds infinity, which Parquet cannot", c.Name).
		WithFix("filter infinite dates out, or choose csv or ndjson")
}

func (e *parquetEncoder) close() error {
	if err := e.writeBatch(); err != nil {
		return err
	}
	return e.w.Close()
}
