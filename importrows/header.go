package importrows

import (
	"context"
	"errors"
	"strings"

	"github.com/pipekit/pipe/errcode"
)

var errHeaderRead = errors.New("header read")

// readHeader reads the CSV header: the first record. It sets where the first
// data record begins and answers the header's column names (trimmed). A file
// with no first record — empty, a BOM alone, blank lines — is
// X_IMPORT_HEADER_MISMATCH, never a success with no rows.
func (a *attempt[In]) readHeader(ctx context.Context, p *plan) ([]string, error) {
	a.plan = *p
	src := a.newTextSource()
	defer src.close()
	// The header is one record: its line end and a BOM fit beside it.
	data, eof, err := src.read(ctx, 0, a.lim.MaxRecordBytes+len("\r\n\uFEFF"))
	if err != nil {
		return nil, err
	}
	p.settleLineEnd(data, eof)
	sp, parser := p.csvSplit(a.lim.MaxRecordBytes)
	var names []string
	consumed, lines, err := sp.Scan(data, 0, 1, eof, func(rec []byte, off, line int64) error {
		if names != nil {
			p.Start, p.Line = off, line
			return errHeaderRead
		}
		fields, err := parser.Parse(rec)
		if err != nil {
			return errcode.Wrap(err, errcode.ImportHeaderMismatch, "import: the header line is not valid CSV").
				WithFix("quote header names that hold the delimiter or a quote, doubling quotes inside")
		}
		names = make([]string, len(fields))
		for i, f := range fields {
			names[i] = strings.TrimSpace(string(f.Value))
		}
		return nil
	})
	switch {
	case errors.Is(err, errHeaderRead):
		return names, nil
	case err != nil:
		return nil, err
	case names == nil:
		return nil, noHeader()
	}
	p.Start, p.Line = int64(consumed), 1+lines
	return names, nil
}

func isTooMany(err error) bool { return errcode.CodeOf(err) == errcode.ImportTooManyErrors }

// headerless settles where a CSV file without a header line begins: at its
// first record (past a BOM), which is data. It answers the declared
// columns, which name the file's in order. A file with no record at all
// imports no rows, as COPY reads it.
func (a *attempt[In]) headerless(ctx context.Context, p *plan) ([]string, error) {
	a.plan = *p
	src := a.newTextSource()
	defer src.close()
	data, eof, err := src.read(ctx, 0, a.lim.MaxRecordBytes+len("\r\n\uFEFF"))
	if err != nil {
		return nil, err
	}
	p.settleLineEnd(data, eof)
	sp, _ := p.csvSplit(a.lim.MaxRecordBytes)
	found := false
	consumed, lines, err := sp.Scan(data, 0, 1, eof, func(_ []byte, off, line int64) error {
		p.Start, p.Line, found = off, line, true
		return errHeaderRead
	})
	switch {
	case errors.Is(err, errHeaderRead):
	case err != nil:
		return nil, err
	case !found:
		p.Start, p.Line = int64(consumed), 1+lines
	}
	return a.declared(), nil
}
