package pipeline

import (
	"context"
	"errors"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pipekit/pipe/errcode"
)

// A chunk of new keys is written without ON CONFLICT. The live-key check of
// ON CONFLICT DO NOTHING is a speculative insertion per row — a fifth of a
// bulk enqueue's cost on the server — and a bulk enqueue is mostly of keys
// nobody holds. So a chunk of at least freshChunk inputs, its keys distinct,
// is first inserted plainly: the unique index still refuses a held key, and
// then the chunk is written again the usual way, in the same transaction
// (a savepoint keeps the caller's transaction alive). After such a refusal
// the next freshCooldown chunks of the job go the usual way at once, so a
// stream of re-enqueues does not pay twice.
const (
	freshChunk    = 16
	freshCooldown = 8
)

// freshGate counts the chunks still to go the usual way after a refusal.
type freshGate struct{ skip atomic.Int32 }

func (g *freshGate) open() bool {
	for {
		n := g.skip.Load()
		if n == 0 {
			return true
		}
		if g.skip.CompareAndSwap(n, n-1) {
			return false
		}
	}
}

func (g *freshGate) refused() { g.skip.Store(freshCooldown) }

// freshChunkOf reports whether inputs lo..hi may be tried as fresh: enough of
// them, each the first of its key in the call, written through a handle
// whose transaction state is known.
func (r *enqueueRows) freshChunkOf(db DB, lo, hi int) bool {
	if hi-lo < freshChunk || !knownHandle(db) {
		return false
	}
	for i := lo; i < hi; i++ {
		if r.firstIndexByKey[[2]string{r.tenants[i], r.keys[i]}] != i {
			return false
		}
	}
	return true
}

func knownHandle(db DB) bool {
	switch db.(type) {
	case *pgxpool.Pool, *pgx.Conn, pgx.Tx:
		return true
	}
	return false
}

// inTransaction reports whether a refused statement would abort a
// transaction the caller holds.
func inTransaction(db DB) bool {
	switch d := db.(type) {
	case pgx.Tx:
		return true
	case *pgx.Conn:
		return d.PgConn().TxStatus() != 'I'
	}
	return false
}

// insertFresh writes inputs lo..hi with the plain insert. It answers false,
// having written nothing, when the live-key index refused a key.
func (j *Job[In, Out]) insertFresh(ctx context.Context, db DB, args pgx.NamedArgs, lo, hi int, r *enqueueRows, out []EnqueueResult) (bool, error) {
	var n int
	var err error
	if inTransaction(db) {
		n, err = freshInSavepoint(ctx, db, args)
	} else {
		n, err = countRows(db.Query(ctx, sqlEnqueueFresh.SQL, sqlEnqueueFresh.Args(args)...))
	}
	if isLiveKeyConflict(err) {
		return false, nil
	}
	if err != nil {
		return false, enqueueErr(ctx, j.spec.name, err)
	}
	if n != hi-lo {
		return false, errcode.New(errcode.Invariant, "job %s: the insert wrote fewer rows than it was given", j.spec.name)
	}
	for i := lo; i < hi; i++ {
		out[i] = EnqueueResult{ID: r.ids[i].String(), RunID: r.runIDs[i].String()}
	}
	return true, nil
}

// freshInSavepoint runs the plain insert inside a savepoint, savepoint,
// insert and release sent as one pipelined batch; a refused insert is rolled
// back to the savepoint, leaving the caller's transaction as it was.
func freshInSavepoint(ctx context.Context, db DB, args pgx.NamedArgs) (int, error) {
	sender, ok := db.(interface {
		SendBatch(context.Context, *pgx.Batch) pgx.BatchResults
	})
	if !ok {
		return 0, errors.New("the handle cannot send a batch")
	}
	b := &pgx.Batch{}
	b.Queue("savepoint pipe_enqueue")
	b.Queue(sqlEnqueueFresh.SQL, sqlEnqueueFresh.Args(args)...)
	b.Queue("release savepoint pipe_enqueue")
	br := sender.SendBatch(ctx, b)
	n, err := freshBatch(br)
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if isLiveKeyConflict(err) {
		if _, rerr := db.Exec(ctx, "rollback to savepoint pipe_enqueue"); rerr != nil {
			return 0, rerr
		}
	}
	return n, err
}

func freshBatch(br pgx.BatchResults) (int, error) {
	if _, err := br.Exec(); err != nil {
		return 0, err
	}
	n, err := countRows(br.Query())
	if err != nil {
		return 0, err
	}
	_, err = br.Exec()
	return n, err
}

func countRows(rows pgx.Rows, err error) (int, error) {
	if err != nil {
		return 0, err
	}
	n := 0
	for rows.Next() {
		n++
	}
	rows.Close()
	return n, rows.Err()
}

func isLiveKeyConflict(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23505" && pgErr.ConstraintName == "runs_open_live_key"
}
