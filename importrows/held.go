package importrows

import (
	"context"
	_ "embed"
	"io"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/importrows/internal/coerce"
)

//go:embed queries/import_input.sql
var importInputSQL string

// heldRows are the rows of a page that hold a value pipe's own coercion
// cannot read (or a column of a type it does not know): they wait for the
// page's one question to the server, which reads each such value with its
// type's input function, as COPY would, and answers its canonical text.
// A row whose values the server reads too is written after the page's
// other rows; one it refuses is refused as before.
type heldRows struct {
	rows  []heldRow
	types []string // the type of each asked value, as the plan spells it
	vals  []string // the values asked, in order
}

// heldRow is one held row: its place in the file, and each field as COPY
// CSV (already coerced) or the index of its value in the question.
type heldRow struct {
	line, off int64
	fields    []heldField
	ordinal   bool // the line is written as a last field (copySink.line)
}

type heldField struct {
	csv []byte
	ask int // index in heldRows.vals, or -1
}

// serverText answers the text a value of c is asked of the server as, and
// whether there is one to ask: any value but NULL, as its text (a JSON
// object or array as written), for a type pipe's coercion does not settle
// alone.
func serverText(col *column, c coerce.Cell) (string, bool) {
	if col.known && col.typ.Final() {
		return "", false
	}
	if col.base != nil {
		if _, code := col.base.AppendCSV(nil, c); code != "" {
			return "", false // too long for the domain's base, as COPY refuses it
		}
	}
	switch c.Kind {
	case coerce.JSON:
		// An array from NDJSON or Parquet is asked as the `{...}` literal
		// the type's input function reads.
		if col.array || strings.HasSuffix(col.typName, "[]") {
			if lit, ok := coerce.ArrayLiteral(nil, c); ok {
				return string(lit), true
			}
		}
		return string(c.Bytes), true
	case coerce.String, coerce.Number:
		return string(c.Bytes), true
	case coerce.Bool:
		return strconv.FormatBool(c.Bool), true
	}
	return "", false
}

// ask answers the server's reading of every held value: its canonical text,
// or ok false where its type refuses it. q runs inside the page's
// transaction, so the session's settings are the COPY's.
func (h *heldRows) ask(ctx context.Context, q pgx.Tx) ([]*string, error) {
	var out []*string
	if len(h.vals) == 0 {
		return nil, nil
	}
	if err := q.QueryRow(ctx, importInputSQL, h.types, h.vals).Scan(&out); err != nil {
		return nil, errcode.Postgres(ctx, err, "import: read values with the server's input functions")
	}
	if len(out) != len(h.vals) {
		return nil, errcode.New(errcode.Invariant, "import: the server read %d values of %d", len(out), len(h.vals)).
			WithFix("report this: pipe.import_input answers one text per value")
	}
	return out, nil
}

// settle asks the server about the held rows, then answers the producer
// that writes the ones it reads as COPY CSV, reporting the others refused
// through rows; nil when no row is held.
func (h *heldRows) settle(ctx context.Context, tx pgx.Tx, cols []column, rows *pageRows) (func(io.Writer) error, error) {
	if len(h.rows) == 0 {
		return nil, nil
	}
	read, err := h.ask(ctx, tx)
	if err != nil {
		return nil, err
	}
	return func(w io.Writer) error { return h.write(ctx, w, cols, read, rows) }, nil
}

func (h *heldRows) write(ctx context.Context, w io.Writer, cols []column, read []*string, rows *pageRows) error {
	var buf []byte
	for _, r := range h.rows {
		line, field := r.encode(buf[:0], cols, read)
		if field != "" {
			if err := rows.refuse(ctx, refusal{Line: r.line, ByteOffset: r.off, Field: field, Code: errcode.ImportFieldInvalid}); err != nil {
				return err
			}
			continue
		}
		buf = line
		rows.rows++
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
	return rows.flushDeferred(ctx)
}

// encode answers the row as one COPY CSV line, the server's readings in
// place, or the first column whose value the server refused.
func (r heldRow) encode(dst []byte, cols []column, read []*string) ([]byte, string) {
	for i, f := range r.fields {
		if i > 0 {
			dst = append(dst, ',')
		}
		if f.ask < 0 {
			dst = append(dst, f.csv...)
			continue
		}
		v := read[f.ask]
		if v == nil {
			return dst, cols[i].name
		}
		dst, _ = textType.AppendCSV(dst, coerce.Cell{Kind: coerce.String, Bytes: []byte(*v)})
	}
	if r.ordinal {
		dst = strconv.AppendInt(append(dst, ','), r.line, 10)
	}
	return append(dst, '\n'), ""
}

// textType quotes the server's readings for COPY: verbatim, as text is.
var textType, _ = coerce.ParseType("text")
