package subject

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"slices"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/exportrows"
)

// exporter is one attempt of one export.
type exporter struct {
	eraser
	bucket      *blob.Bucket
	dir         string
	format      exportrows.Format
	compression blob.Compression
	runID       string
	replica     *pgxpool.Pool // where the rows are read; nil: in the step's transaction
}

// export plans, writes every reached table a page at a time (one pass per
// table, in row-identity order), copies the person's objects, exports the
// targets and writes
// index.json last.
func (ex *exporter) export(ctx context.Context) (ExportResult, error) {
	p, err := ex.steps.plan(ctx, func(ctx context.Context, tx pgx.Tx) (*Plan, error) {
		g, err := ex.graphIn(ctx, tx)
		if err != nil {
			return nil, err
		}
		plan := g.plan()
		return plan, tx.QueryRow(ctx, "select pipe.now()").Scan(&plan.PlannedAt)
	})
	if err != nil {
		return ExportResult{}, err
	}
	idx := Index{Root: p.Root, RunID: ex.runID, Format: ex.format, Compression: ex.compression, StartedAt: p.PlannedAt}
	rows := map[string]int64{}
	for _, t := range p.Tables {
		it, err := ex.table(ctx, p, t)
		if err != nil {
			return ExportResult{}, err
		}
		rows[t.Table] = it.Rows
		idx.Tables = append(idx.Tables, it)
	}
	if idx.Objects, err = ex.copyObjects(ctx, p); err != nil {
		return ExportResult{}, err
	}
	if idx.Targets, err = ex.exportTargets(ctx, p); err != nil {
		return ExportResult{}, err
	}
	key, err := ex.writeIndex(ctx, idx)
	if err != nil {
		return ExportResult{}, err
	}
	return ExportResult{Root: p.Root, Tables: tableResults(p, rows, true), Objects: idx.Objects, Targets: idx.Targets,
		Bucket: ex.bucket.URL(), Index: key}, nil
}

// table writes one table's pages, each one step: the rows after the last
// page's last row identity, streamed into one object.
func (ex *exporter) table(ctx context.Context, p *Plan, t PlanTable) (IndexTable, error) {
	it := IndexTable{Table: t.Table, Treatment: t.Treatment, Reason: t.Reason, Sealed: t.Sealed, Parts: []exportrows.Part{}}
	var after []string
	for page := 0; ; page++ {
		name := fmt.Sprintf("export/%s/page-%05d", t.Table, page)
		out, err := ex.steps.tx(ctx, name, func(ctx context.Context, tx pgx.Tx) (pageOut, error) {
			return ex.page(ctx, tx, p, t, page, after)
		})
		if err != nil {
			return it, err
		}
		if out.Part != nil {
			it.Parts = append(it.Parts, *out.Part)
			it.Rows += out.Part.Rows
		}
		if err := ex.steps.progress(ctx, it.Rows, name); err != nil {
			return it, err
		}
		if out.Found < int64(ex.limit) {
			return it, nil
		}
		after = out.After
	}
}

// page reads and writes one page of table t: in the step's transaction,
// or on the replica in a read-only transaction of its own.
func (ex *exporter) page(ctx context.Context, tx pgx.Tx, p *Plan, t PlanTable, page int, after []string) (pageOut, error) {
	if ex.replica == nil {
		return ex.readPage(ctx, tx, p, t, page, after)
	}
	rtx, err := ex.replica.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		return pageOut{}, errcode.Postgres(ctx, err, "subject: export of "+t.Table+" on the replica")
	}
	defer func() { _ = rtx.Rollback(context.WithoutCancel(ctx)) }()
	out, err := ex.readPage(ctx, rtx, p, t, page, after)
	return out, errcode.ReplicaRead(err, "subject: export of "+t.Table)
}

// readPage reads and writes one page of table t in tx.
func (ex *exporter) readPage(ctx context.Context, tx pgx.Tx, p *Plan, t PlanTable, page int, after []string) (pageOut, error) {
	g, err := ex.graphIn(ctx, tx)
	if err != nil {
		return pageOut{}, err
	}
	n := g.nodeNamed(t.Table)
	if n == nil {
		return pageOut{}, changed(p.Root, "table "+t.Table+" is no longer reached")
	}
	if _, err := tx.Exec(ctx, exportrows.SessionSQL()); err != nil {
		return pageOut{}, err
	}
	codec, err := ex.codec(ctx, tx, n, t.Sealed)
	if err != nil {
		return pageOut{}, err
	}
	span := statementSpan(ctx, "export", t.Table)
	defer span.End()
	st := g.exportPage(n, codec.Select(), after, ex.limit)
	id := len(rowID(n))
	all := append([]any{pgx.QueryExecModeDescribeExec, codec.ResultFormats(id)}, args(ex.key, st)...)
	rows, err := tx.Query(ctx, st.SQL, all...)
	if err != nil {
		return pageOut{}, statementErr(err, "export", t.Table)
	}
	defer rows.Close()
	if !rows.Next() {
		return pageOut{}, statementErr(rows.Err(), "export", t.Table)
	}
	key, err := blob.JoinKey(ex.dir, t.Table, fmt.Sprintf("part-%05d%s", page, codec.Ext()))
	if err != nil {
		return pageOut{}, err
	}
	part := &exportrows.Part{Key: key}
	var last []string
	err = ex.bucket.Write(ctx, key, blob.WriteOptions{ContentType: codec.ContentType()}, func(w io.Writer) error {
		var err error
		last, err = writeRows(w, codec, rows, id, part)
		return err
	})
	if err != nil {
		return pageOut{}, err
	}
	return pageOut{Found: part.Rows, Changed: part.Rows, After: last, Part: part}, nil
}

// codec answers the codec of n's exported columns: every column but the
// sealed ones, typed by a LIMIT 0 read.
func (ex *exporter) codec(ctx context.Context, tx pgx.Tx, n *node, sealed []string) (*exportrows.RowCodec, error) {
	var names []string
	for _, c := range n.t.Columns {
		if !slices.Contains(sealed, c.Name) {
			names = append(names, c.Name)
		}
	}
	rows, err := tx.Query(ctx, "select "+colList("", names)+" from "+n.t.ident()+" limit 0")
	if err != nil {
		return nil, err
	}
	fds := slices.Clone(rows.FieldDescriptions())
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	cols, err := exportrows.DescribeColumns(ctx, tx, fds)
	if err != nil {
		return nil, err
	}
	return exportrows.NewRowCodec(cols, ex.format, ex.compression)
}

// writeRows encodes the rows, the first already read, into w, and answers
// the row identity of the last (its id columns, read as text, come last).
func writeRows(w io.Writer, codec *exportrows.RowCodec, rows pgx.Rows, id int, part *exportrows.Part) ([]string, error) {
	sum := &summer{w: w, h: sha256.New()}
	enc, err := codec.NewEncoder(sum)
	if err != nil {
		return nil, err
	}
	var last []string
	for more := true; more; more = rows.Next() {
		vals := rows.RawValues()
		if err := enc.Row(vals); err != nil {
			return nil, err
		}
		last = last[:0]
		for _, v := range vals[len(vals)-id:] {
			last = append(last, string(v))
		}
		part.Rows++
	}
	if err := rows.Err(); err != nil {
		return nil, statementErr(err, "export", "a table")
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	part.Bytes, part.SHA256 = sum.n, hex.EncodeToString(sum.h.Sum(nil))
	return last, nil
}

// summer counts and hashes what is written through it.
type summer struct {
	w io.Writer
	h hash.Hash
	n int64
}

func (s *summer) Write(p []byte) (int, error) {
	s.h.Write(p)
	n, err := s.w.Write(p)
	s.n += int64(n)
	return n, err
}
