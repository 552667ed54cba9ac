package importrows

import (
	"context"
	"errors"
	"io"
	"math"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/importrows/internal/split"
)

// window answers how many bytes a page reads: PageBytes, or more when a
// record may be longer than a page.
func (a *attempt[In]) window() int {
	return int(max(a.lim.PageBytes, int64(a.lim.MaxRecordBytes)+2))
}

func (a *attempt[In]) splitter() split.Splitter {
	if a.plan.Format == CSV {
		s, _ := a.plan.csvSplit(a.lim.MaxRecordBytes)
		return s
	}
	return split.Splitter{MaxRecord: a.lim.MaxRecordBytes}
}

func (a *attempt[In]) decoder() rowDecoder {
	switch a.plan.Format {
	case NDJSON:
		return newNDJSONDecoder(a.cols)
	case Parquet:
		return nil // parquet rows come decoded
	}
	_, parser := a.plan.csvSplit(a.lim.MaxRecordBytes)
	return &csvDecoder{parser: parser, n: len(a.cols)}
}

// newPageRows prepares one page's row accounting and its report part.
func (a *attempt[In]) newPageRows(page int, cur cursor, sink rowSink) (*pageRows, error) {
	key, err := reportKey(a.errorPrefix(), page)
	if err != nil {
		return nil, err
	}
	return &pageRows{
		dec: a.decoder(), sink: sink, rep: &report{bucket: a.errs, key: key},
		before: cur.Refused, beforeBare: cur.BareQuotes, max: a.maxRowErrors(),
	}, nil
}

// readChunk is how many bytes of a page are read and scanned at a time:
// the page buffer's size. It holds a whole record, so every chunk but the
// page's last one consumes at least one.
func (a *attempt[In]) readChunk() int {
	return max(1<<20, a.lim.MaxRecordBytes+2)
}

// scanText reads the page at cur a chunk at a time and passes each record
// to rows; it answers the checkpoint after the page's last whole record. A
// record the chunk's end cuts is read again at the start of the next chunk;
// one the page's end cuts, by the next page.
func (a *attempt[In]) scanText(ctx context.Context, cur cursor, rows *pageRows) (cursor, error) {
	if err := a.text.check(ctx); err != nil {
		return cur, err
	}
	sp := a.splitter()
	fn := func(rec []byte, off, line int64) error { return rows.record(ctx, rec, off, line) }
	end := cur.Offset + int64(a.window())
	limit := a.textEnd()
	next := cur
	for {
		start := next.Offset
		data, eof, err := a.text.read(ctx, start, int(min(int64(a.readChunk()), end-start, limit-start)))
		if err != nil {
			return cur, err
		}
		eof = eof || start+int64(len(data)) >= limit
		consumed, lines, err := sp.Scan(data, start, next.Line, eof, fn)
		if err != nil {
			return cur, err
		}
		next.Offset, next.Line = start+int64(consumed), next.Line+lines
		if eof && consumed == len(data) {
			next.Done = true
			break
		}
		if start+int64(len(data)) >= end {
			break // the page's bytes are read
		}
		if consumed == 0 {
			return cur, errcode.New(errcode.Invariant, "import: a chunk of %d bytes held no whole record", len(data)).
				WithFix("report this: a chunk is sized to hold the longest record")
		}
	}
	next.Rows, next.Refused, next.BareQuotes = cur.Rows+rows.rows, cur.Refused+rows.refused, cur.BareQuotes+rows.bareQuotes
	return next, nil
}

// fill reads one page at cur into rows and answers the next checkpoint.
type fill func(ctx context.Context, cur cursor, rows *pageRows) (cursor, error)

// tablePage is one page of the table writer, inside the page's transaction:
// the rows go through COPY while the page is parsed, then the report part is
// stored, then the step commits the rows and the checkpoint together.
//
// With a key, a page is first COPYed straight into the table in a
// savepoint — the fast path while the table holds none of the file's keys,
// as on a first import. A key conflict rolls the savepoint back and the page
// goes again through the staging table and the upsert, as does every later
// page of the run.
func (a *attempt[In]) tablePage(ctx context.Context, tx pgx.Tx, page int, cur cursor) (cursor, error) {
	if err := a.plan.Settings.apply(ctx, tx); err != nil {
		return cur, err
	}
	f := fill(a.scanText)
	if a.plan.Format == Parquet {
		f = a.parquetRows
	}
	if len(a.plan.Key) == 0 || cur.Staged {
		next, rep, err := a.loadPage(ctx, tx, page, cur, f, len(a.plan.Key) == 0)
		return next, a.settleReport(rep, err)
	}
	sp, err := tx.Begin(ctx)
	if err != nil {
		return cur, err
	}
	next, rep, err := a.loadPage(ctx, sp, page, cur, f, true)
	if err == nil {
		err = sp.Commit(ctx)
	}
	if !isKeyConflict(err) {
		return next, a.settleReport(rep, err)
	}
	rep.abort(err)
	if err := sp.Rollback(ctx); err != nil {
		return cur, err
	}
	cur.Staged = true
	next, rep, err = a.loadPage(ctx, tx, page, cur, f, false)
	return next, a.settleReport(rep, err)
}

// loadPage COPYs one page: into the table (direct) or into the staging
// table and upserted. The report part is left for the caller to settle.
func (a *attempt[In]) loadPage(ctx context.Context, tx pgx.Tx, page int, cur cursor, f fill, direct bool) (cursor, *report, error) {
	sink := a.copySink()
	rows, err := a.newPageRows(page, cur, sink)
	if err != nil {
		return cur, &report{}, err
	}
	var next cursor
	_, err = a.tableWriter().write(ctx, tx, direct, func(out io.Writer) error {
		sink.w = out
		var err error
		if next, err = f(ctx, cur, rows); err != nil {
			return err
		}
		return sink.flush()
	}, func(ctx context.Context, tx pgx.Tx) (func(io.Writer) error, error) {
		return sink.held.settle(ctx, tx, a.cols, rows)
	})
	next.Rows, next.Refused, next.BareQuotes = cur.Rows+rows.rows, cur.Refused+rows.refused, cur.BareQuotes+rows.bareQuotes
	return next, rows.rep, err
}

// settleReport stores the page's report part; on a failed page it stores it
// only when the failure is the refusal limit (the report explains it).
func (a *attempt[In]) settleReport(rep *report, err error) error {
	if err == nil || isTooMany(err) {
		if ferr := rep.finish(); ferr != nil {
			return errors.Join(err, ferr)
		}
		return err
	}
	rep.abort(err)
	return err
}

func (a *attempt[In]) tableWriter() *tableWriter {
	if a.rng != nil && a.rng.Stage != "" {
		return &tableWriter{table: a.rng.Stage, columns: append(slices.Clip(a.plan.Columns), lineColumn)}
	}
	return &tableWriter{table: a.plan.Table, columns: a.plan.Columns, key: a.plan.Key}
}

// handlePage is one page for the app's Handle: at least once.
func (a *attempt[In]) handlePage(ctx context.Context, page int, cur cursor) (cursor, error) {
	if a.plan.Format == Parquet {
		return a.parquetHandlePage(ctx, page, cur)
	}
	sink := a.handleSink(page)
	rows, err := a.newPageRows(page, cur, sink)
	if err != nil {
		return cur, err
	}
	next, err := a.scanText(ctx, cur, rows)
	if err == nil {
		err = sink.flush(ctx)
	}
	return next, a.settleReport(rows.rep, err)
}

func (a *attempt[In]) handleSink(page int) *handleSink[In] {
	return &handleSink[In]{
		cols: a.cols, size: a.im.o.Batch, handle: a.im.o.Handle,
		batch: Batch[In]{Input: a.run.Input, Page: page, Columns: a.plan.Columns},
	}
}

// copySink answers the page's COPY encoder over the attempt's chunk.
func (a *attempt[In]) copySink() *copySink {
	if a.copyBuf == nil {
		a.copyBuf = make([]byte, 0, copyChunk+DefaultMaxRecordBytes)
	}
	return &copySink{cols: a.cols, buf: a.copyBuf[:0], line: a.rng != nil && a.rng.Stage != ""}
}

// textEnd answers where the run's reading ends: its range's end in a child
// run of a parallel import; else the last row group of a Parquet file, or
// nowhere before the text's end.
func (a *attempt[In]) textEnd() int64 {
	switch {
	case a.rng != nil:
		return a.rng.End
	case a.plan.Format == Parquet:
		return int64(a.plan.RowGroups)
	}
	return math.MaxInt64
}
