package importrows

import (
	"context"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/importrows/internal/coerce"
	"github.com/pipekit/pipe/importrows/internal/pqread"
)

// parquetFile is an open Parquet file read by ranges: the footer once, then
// one row group per page.
type parquetFile struct {
	f *pqread.File
}

func openParquet(ctx context.Context, b *blob.Bucket, key string, size int64, lim pqread.Limits) (*parquetFile, error) {
	f, err := pqread.OpenLimited(b.ReaderAt(ctx, key, size), size, lim)
	if err != nil {
		return nil, err
	}
	return &parquetFile{f: f}, nil
}

func (p *parquetFile) close() { p.f.Close() }

func errParquetCompressed() error {
	return errcode.New(errcode.CompressionInvalid, "import: a Parquet file is compressed inside; it cannot be gzip or zstd as a whole").
		WithFix("import the .parquet file itself, with compression auto or none")
}

// parquetColumns reads the schema: the file's columns, and its row groups
// as the pages.
func (a *attempt[In]) parquetColumns(ctx context.Context, p *plan) ([]string, error) {
	if c, err := blob.ParseCompression(a.src.Compression); err != nil {
		return nil, err
	} else if c != blob.CompressionAuto && c != blob.CompressionNone {
		return nil, errParquetCompressed()
	}
	pf, err := openParquet(ctx, a.bucket, a.src.Key, p.Size, a.lim.parquet())
	if err != nil {
		return nil, err
	}
	defer pf.close()
	if err := pf.f.Check(); err != nil {
		return nil, err
	}
	p.RowGroups, p.Start, p.Line = pf.f.RowGroups(), 0, 1
	return pf.f.Columns(), nil
}

// parquetRows reads the row group at cur into rows.
func (a *attempt[In]) parquetRows(ctx context.Context, cur cursor, rows *pageRows) (cursor, error) {
	group := int(cur.Offset)
	next := cur
	if group < a.plan.RowGroups {
		index := a.parquetIndex()
		cells := make([]coerce.Cell, len(a.cols))
		err := a.pq.f.ReadRowGroup(ctx, group, func(row int64, vals []pqread.Value) error {
			for i := range cells {
				cells[i] = coerce.Cell{Kind: coerce.Null}
			}
			for j, v := range vals {
				cells[index[j]] = pqCell(v)
			}
			return rows.accept(ctx, cells, fault{}, row, 0)
		})
		if err != nil {
			return cur, err
		}
		next.Line += a.pq.f.NumRows(group)
	}
	next.Offset = int64(group + 1)
	next.Rows, next.Refused = cur.Rows+rows.rows, cur.Refused+rows.refused
	next.Done = next.Offset >= a.textEnd()
	return next, nil
}

// parquetIndex maps the file's column order to the plan's.
func (a *attempt[In]) parquetIndex() []int {
	names := a.pq.f.Columns()
	index := make([]int, len(names))
	for j, n := range names {
		for i, c := range a.plan.Columns {
			if c == n {
				index[j] = i
			}
		}
	}
	return index
}

func pqCell(v pqread.Value) coerce.Cell {
	switch v.Kind {
	case pqread.String:
		return coerce.Cell{Kind: coerce.String, Bytes: v.Text}
	case pqread.Number:
		return coerce.Cell{Kind: coerce.Number, Bytes: v.Text}
	case pqread.Bool:
		return coerce.Cell{Kind: coerce.Bool, Bool: v.Bool}
	case pqread.JSON:
		return coerce.Cell{Kind: coerce.JSON, Bytes: v.Text}
	}
	return coerce.Cell{Kind: coerce.Null}
}

func (a *attempt[In]) parquetHandlePage(ctx context.Context, page int, cur cursor) (cursor, error) {
	sink := a.handleSink(page)
	rows, err := a.newPageRows(page, cur, sink)
	if err != nil {
		return cur, err
	}
	next, err := a.parquetRows(ctx, cur, rows)
	if err == nil {
		err = sink.flush(ctx)
	}
	return next, a.settleReport(rows.rep, err)
}
