package exportrows

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/blob"
)

// page reads up to PageRows rows after cur's key (a snapshot export: the
// next range of blocks) and streams them into one object: rows go from the
// connection straight into the encoder, which writes through the
// compressor and the checksum into the bucket's writer. No page of rows is
// ever held. A keyset page that reads no row writes nothing and ends the
// run; a snapshot page that reads none writes nothing, and the run goes on
// to the next range unless this was the last. A keyset page reads in a
// read-only savepoint of the step's transaction (on a replica: in a
// read-only transaction there), a snapshot page in the attempt's read-only
// snapshot: the source is never written.
func (a *attempt[In]) page(ctx context.Context, tx pgx.Tx, page int, cur cursor) (next cursor, err error) {
	if a.plan.Snapshot || a.rng != nil {
		return a.readPage(ctx, tx, page, cur)
	}
	if a.ex.o.Replica != nil {
		return a.replicaPage(ctx, page, cur)
	}
	ro, done, err := readOnly(ctx, tx)
	if err != nil {
		return cur, err
	}
	defer func() {
		if rerr := done(); err == nil && rerr != nil {
			next, err = cur, rerr
		}
	}()
	return a.readPage(ctx, ro, page, cur)
}

// readPage reads the page in tx (a keyset page) or in the attempt's
// snapshot, and writes its object.
func (a *attempt[In]) readPage(ctx context.Context, tx pgx.Tx, page int, cur cursor) (cursor, error) {
	rows, next, err := a.pageRows(ctx, tx, cur)
	if err != nil {
		return cur, err
	}
	defer rows.Close()
	if !rows.Next() {
		next.Done = next.Done || !a.plan.Snapshot
		return next, rows.Err()
	}
	set := a.plan.Settings
	part := Part{Key: a.partKey(page)}
	err = a.bucket.Write(ctx, part.Key, blob.WriteOptions{ContentType: contentType(set)}, func(w io.Writer) error {
		return a.writePart(w, rows, &part)
	})
	if err != nil {
		return cur, err
	}
	if !a.plan.Snapshot {
		next.After, next.Done = a.keys.texts(), part.Rows < int64(set.PageRows)
	}
	next.Rows, next.Parts, next.Bytes = next.Rows+part.Rows, next.Parts+1, next.Bytes+part.Bytes
	next.Part = &part
	return next, nil
}

// pageRows starts reading the page after cur and answers the cursor past
// it (its totals not yet counted): a keyset page reads in the step's
// transaction, a snapshot page in the attempt's snapshot.
func (a *attempt[In]) pageRows(ctx context.Context, tx pgx.Tx, cur cursor) (pgx.Rows, cursor, error) {
	next := cur
	next.Done, next.Part = false, nil
	if !a.plan.Snapshot && a.rng == nil {
		if _, err := tx.Exec(ctx, sqlSession); err != nil {
			return nil, next, err
		}
		sql, args := a.sql.args(a.src, cur.After, a.plan.Settings.PageRows)
		rows, err := tx.Query(ctx, sql, args...)
		return rows, next, err
	}
	snap, err := a.snapshot(ctx)
	if err != nil {
		return nil, next, err
	}
	if a.rng != nil { // a child's keyset page, in its parent's snapshot
		sql, args := a.sql.args(a.src, cur.After, a.plan.Settings.PageRows)
		rows, err := snap.tx.Query(ctx, sql, append(args, throughArgs(a.rng)...)...)
		return rows, next, err
	}
	if next.Snapshot != snap.token {
		next.Snapshot, next.Snapshots = snap.token, next.Snapshots+1
	}
	to, last := a.blockRange(cur.Block, snap.blocks)
	next.Block, next.Done = to, last
	sql, args := a.sql.blockArgs(a.src, cur.Block, to)
	rows, err := snap.tx.Query(ctx, sql, args...)
	return rows, next, err
}

// writePart encodes the rows, the first already read, into w.
func (a *attempt[In]) writePart(w io.Writer, rows pgx.Rows, part *Part) error {
	sum := &summer{w: w, h: sha256.New()}
	enc, err := a.encoder(sum)
	if err != nil {
		return err
	}
	for more := true; more; more = rows.Next() {
		vals := rows.RawValues()
		if err := a.keys.keep(vals); err != nil {
			return err
		}
		if err := enc.row(vals); err != nil {
			return err
		}
		part.Rows++
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if err := enc.close(); err != nil {
		return err
	}
	part.Bytes, part.SHA256 = sum.n, hex.EncodeToString(sum.h.Sum(nil))
	return nil
}

// encoder writes rows of raw values in one format.
type encoder interface {
	row(vals [][]byte) error
	// close finishes the file (and its compression); it does not close the
	// writer beneath.
	close() error
}

// encoder answers the page's encoder writing into w. The attempt's Parquet
// encoder serves every page: its buffers are reused, not reallocated.
func (a *attempt[In]) encoder(w io.Writer) (encoder, error) {
	set := a.plan.Settings
	if set.Format != Parquet {
		return newTextEncoder(w, a.cols, set)
	}
	if a.pq == nil {
		var err error
		if a.pq, err = newParquetEncoder(a.cols, set); err != nil {
			return nil, err
		}
	}
	a.pq.reset(w)
	return a.pq, nil
}

// newTextEncoder answers a csv or ndjson encoder writing into w.
func newTextEncoder(w io.Writer, cols []column, set Settings) (encoder, error) {
	z, err := blob.Compress(w, set.Compression)
	if err != nil {
		return nil, err
	}
	if set.Format == NDJSON {
		return newNDJSONEncoder(z, cols), nil
	}
	return newCSVEncoder(z, cols)
}

// summer counts and hashes what is written through it: the object's bytes
// as stored.
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

// partKey answers the key of page's object: <dir>/part-NNNNN.<ext>.
func (a *attempt[In]) partKey(page int) string {
	set := a.plan.Settings
	name := fmt.Sprintf("part-%s%05d.%s", rangeTag(a.rng), page, set.Format)
	if set.Format != Parquet {
		name += set.Compression.Ext()
	}
	return a.plan.Dir + "/" + name
}

func contentType(set Settings) string {
	switch {
	case set.Format == Parquet:
		return "application/vnd.apache.parquet"
	case set.Compression == blob.CompressionGzip:
		return "application/gzip"
	case set.Compression == blob.CompressionZstd:
		return "application/zstd"
	case set.Format == NDJSON:
		return "application/x-ndjson"
	}
	return "text/csv"
}
