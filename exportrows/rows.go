package exportrows

import (
	"context"
	"io"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/errcode"
)

// RowColumn is one column a [RowCodec] writes: its name and its type as
// the server describes it. It is JSON, so a job can keep it in a step.
type RowColumn struct {
	Name string `json:"name"`
	Type string `json:"type"` // with modifiers: numeric(10,2)
	Base string `json:"base"` // without: numeric
	OID  uint32 `json:"oid"`
	Mod  int32  `json:"mod"`
	Elem uint32 `json:"elem,omitempty"` // an array's element type
}

// DescribeColumns names the types of the result columns fds (a LIMIT 0
// read's), for [NewRowCodec].
func DescribeColumns(ctx context.Context, tx pgx.Tx, fds []pgconn.FieldDescription) ([]RowColumn, error) {
	types, err := typesOf(ctx, tx, fds)
	out := make([]RowColumn, len(types))
	for i, t := range types {
		out[i] = RowColumn(t)
	}
	return out, err
}

// RowCodec writes rows of the columns it was made for as CSV or NDJSON,
// by the package's rules for each type (see the package documentation):
// the encoders pipe's exports use, for another job that reads rows its
// own way (package subject's export does).
type RowCodec struct {
	cols []column
	set  Settings
}

// NewRowCodec answers a codec writing cols in format (CSV or NDJSON; not
// Parquet), each object compressed as compression says (none, gzip or
// zstd).
func NewRowCodec(cols []RowColumn, format Format, compression blob.Compression) (*RowCodec, error) {
	if format != CSV && format != NDJSON {
		return nil, errcode.New(errcode.JobInputInvalid, "export: a row codec writes csv or ndjson, not %s", format).
			WithFix("choose csv or ndjson")
	}
	set := Settings{Format: format, Compression: compression}.defaulted()
	p := plan{Settings: set}
	for _, c := range cols {
		p.Columns = append(p.Columns, colType(c))
	}
	return &RowCodec{cols: columnsOf(p), set: set}, nil
}

// Select answers the select expressions to read the columns with, in
// order: each quoted column, an array read as text[] where pipe reads its
// elements as text.
func (c *RowCodec) Select() []string {
	out := make([]string, len(c.cols))
	for i, col := range c.cols {
		out[i] = col.expr()
	}
	return out
}

// ResultFormats answers the result formats to read the columns with (pass
// it as the first query argument), for extra columns beyond them too:
// those are read as text.
func (c *RowCodec) ResultFormats(extra int) pgx.QueryResultFormats {
	out := make(pgx.QueryResultFormats, len(c.cols)+extra)
	for i, col := range c.cols {
		if col.binary {
			out[i] = pgx.BinaryFormatCode
		}
	}
	return out
}

// Ext answers the objects' extension: .ndjson or .csv, then .gz or .zst
// when compressed.
func (c *RowCodec) Ext() string { return "." + string(c.set.Format) + c.set.Compression.Ext() }

// ContentType answers the objects' content type.
func (c *RowCodec) ContentType() string { return contentType(c.set) }

// RowEncoder writes rows into one object.
type RowEncoder interface {
	// Row writes one row of raw values (rows.RawValues(), in the
	// formats ResultFormats asked for); extra values past the codec's
	// columns are ignored.
	Row(vals [][]byte) error
	// Close finishes the object (and its compression); it does not close
	// the writer beneath.
	Close() error
}

// NewEncoder answers an encoder writing into w.
func (c *RowCodec) NewEncoder(w io.Writer) (RowEncoder, error) {
	enc, err := newTextEncoder(w, c.cols, c.set)
	if err != nil {
		return nil, err
	}
	return rowEncoder{enc}, nil
}

type rowEncoder struct{ e encoder }

func (r rowEncoder) Row(vals [][]byte) error { return r.e.row(vals) }
func (r rowEncoder) Close() error            { return r.e.close() }

// SessionSQL answers the statement a transaction reading rows for a codec
// runs first: the settings under which values sent as text come out the
// same whatever the server's defaults (UTC, ISO dates, hex bytea).
func SessionSQL() string { return sqlSession }
