package exportrows

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strconv"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// snapshotPlan settles a snapshot export's plan: a table or materialized
// view (a view or a partitioned table has no storage of its own to walk),
// no key, and the blocks a page reads.
func (a *attempt[In]) snapshotPlan(ctx context.Context, tx pgx.Tx, t *table, p *plan) error {
	if t.Kind != "r" && t.Kind != "m" {
		return errcode.New(errcode.ExportSourceInvalid, "export %s: a snapshot export reads a table's storage; this is a view, a partitioned or a foreign table", p.Name).
			WithFix("export it in key order (the default), or name the partitions one by one")
	}
	p.OID = t.OID
	return tx.QueryRow(ctx, sqlPageBlocks, t.OID, p.Settings.PageRows).Scan(&p.Blocks)
}

// snapshotRead is an attempt's one REPEATABLE READ, read-only transaction,
// held on a connection of its own from the attempt's first page to its
// end: every page the attempt reads sees the table as it was when the
// first one began. The connection is held through pipeline.Hold, whose
// budget keeps any number of snapshot exports from taking every connection
// their pages' steps need.
type snapshotRead struct {
	free   func() // gives the connection back
	tx     pgx.Tx
	blocks int64  // the table's blocks, read in the snapshot
	token  string // names the snapshot in the cursor, to count snapshots
}

// snapshot answers the attempt's snapshot, beginning it on first use: on
// the replica when there is one.
func (a *attempt[In]) snapshot(ctx context.Context) (*snapshotRead, error) {
	if a.snap != nil {
		return a.snap, nil
	}
	begin := a.heldSnapshot
	switch {
	case a.rng != nil:
		begin = a.importedSnapshot
	case a.ex.o.Replica != nil:
		begin = a.replicaSnapshot
	}
	tx, free, err := begin(ctx)
	if err != nil {
		return nil, err
	}
	s := &snapshotRead{free: free, tx: tx, token: newToken()}
	if _, err = tx.Exec(ctx, sqlSession); err == nil && a.rng == nil {
		err = tx.QueryRow(ctx, sqlTableBlocks, a.plan.OID).Scan(&s.blocks)
	}
	if err != nil {
		s.close()
		return nil, errcode.Postgres(ctx, err, "export "+a.plan.Name+": begin the snapshot")
	}
	a.snap = s
	return s, nil
}

// heldSnapshot begins the snapshot on a connection of the job's database
// taken with pipeline.Hold.
func (a *attempt[In]) heldSnapshot(ctx context.Context) (pgx.Tx, func(), error) {
	held, err := pipeline.Hold(ctx)
	if err != nil {
		return nil, nil, err
	}
	tx, err := held.Conn().BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		held.Release()
		return nil, nil, errcode.Postgres(ctx, err, "export "+a.plan.Name+": begin the snapshot")
	}
	return tx, held.Release, nil
}

// lost reports a snapshot whose connection is gone.
func (s *snapshotRead) lost() bool {
	return s != nil && s.tx.Conn().IsClosed()
}

func (s *snapshotRead) close() {
	if s != nil {
		_ = s.tx.Rollback(context.Background())
		s.free()
	}
}

func newToken() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// blockRange answers the blocks a snapshot page starting at block from
// reads, of a table of blocks blocks: [from, to), or from on when it is the
// last page (to < 0), so that the last page reads whatever the table holds
// past the blocks it had.
func (a *attempt[In]) blockRange(from, blocks int64) (to int64, last bool) {
	to = from + a.plan.Blocks
	if to >= blocks {
		return -1, true
	}
	return to, false
}

// tid answers the text of the first tuple id of block b.
func tid(b int64) string { return "(" + strconv.FormatInt(b, 10) + ",0)" }

// snapshotSQL are a snapshot page's statements: a range of blocks, and the
// last page's open range, by the tuple ids' range scan (PostgreSQL 14+).
func snapshotSQL(src Source, sel string) (next, last string) {
	n := len(src.Args)
	from := "ctid >= " + param(n+1) + "::text::tid"
	return sel + whereAnd(src, from+" and ctid < "+param(n+2)+"::text::tid"), sel + whereAnd(src, from)
}
