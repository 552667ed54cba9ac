// Package pgtail follows an app table as a consumer's feed: a keyset read
// over an ordered id column, in id order, that never passes a row whose
// transaction has not ended.
//
//	tail := pgtail.MustNew(pool, pgtail.Options[Order]{Table: pg.Relation{Name: "orders"}, Where: "account_id = $1",
//		Args: func(key string) []any { return []any{key} }})
//
//	sync := consumer.MustNew(consumer.Options[pgtail.Row[Order], int64]{
//		Name:   "orders.sync",
//		Keys:   accounts,
//		Open:   tail.Open,
//		Lag:    tail.Lag,
//		Handle: func(ctx context.Context, tx pgx.Tx, key string, rows []pgtail.Row[Order]) (int64, error) {
//			// ... write the effect of rows through tx ...
//			return pgtail.Cursor(rows), nil
//		},
//		Cursor: consumer.StoredCursor[int64](),
//	})
//
// # The in-flight gap
//
// Ids come from a sequence in the order transactions draw them, but rows
// become visible in the order their transactions commit. A reader that
// reads "every id after my cursor" sees id 2 when its transaction commits
// while the one holding id 1 is still open, moves its cursor to 2, and
// never reads id 1. That is the gap every naive table tail (and some change
// capture tools) falls into.
//
// pgtail reads only up to a horizon below which every id is settled —
// committed, or never to be — the way Crunchy Data's pg_incremental
// sequence pipelines find their safe range: read the sequence's last value,
// then wait for every transaction that held a writer's lock on the table at
// that moment to end. An id at or below that value was drawn inside a
// statement on the table (a default nextval in an INSERT), whose ROW
// EXCLUSIVE lock its transaction holds to its end; so once those
// transactions have ended, every such id is visible or gone for good.
// pg_incremental waits inside the server (WaitForLockers); pgtail reads
// pg_locks from the client, every Poll, and never takes a lock a writer
// would wait for.
//
// Why not the transaction ids alone (pg_snapshot_xmin, xid8)? A
// transaction draws its id from the sequence before it has a transaction id
// of its own — it gets one when it writes the row — so a snapshot taken in
// between neither shows the row nor lists its transaction as in flight.
// The table lock is held from the start of the statement, before the draw.
//
// What follows from it:
//
//   - A long open writer transaction holds the horizon, and the tail, back
//     until it ends (the lag shows the rows waiting). Keep write
//     transactions on the table short; an idle-in-transaction session stalls
//     the tail, as it stalls vacuum.
//   - Ids must be drawn by the statements that insert them: an app that
//     calls nextval in one statement and inserts the value in a later one,
//     with no lock on the table in between, can land below the horizon.
//   - The sequence must have CACHE 1 (the default): a session that caches
//     values can insert one long after a larger one was read. A cached
//     sequence, one counting down, an id that owns no sequence (unless
//     Sequence names it), a non-integer id and a partitioned table are
//     refused with X_CONSUMER_SOURCE_INVALID when the feed opens.
//   - Rows are read once, when they appear: an UPDATE of a row already read
//     is not delivered again. The tail follows inserts.
//
// # Reading
//
// Each read is one statement, `select id, columns from table where id >
// $pos and id <= $horizon [and (where)] order by id limit $n`: give the id
// column an index (a primary key is one). Reads answer at most the batch the
// consumer asks for; a caught-up tail looks again every Poll (100 ms) and
// never answers io.EOF — a table does not end. The cursor is the last row's
// id ([Cursor]); the zero cursor reads the table from its first positive id.
// [Tail.Lag] counts the rows after the cursor, up to LagCap.
//
// Rows are scanned with Options.Scan, by default
// pgx.RowToStructByNameLax[T] (a struct whose fields or db tags name the
// columns); [Row] carries the id beside the value.
//
// # Errors
//
// X_CONSUMER_INVALID for a bad declaration; X_CONSUMER_SOURCE_INVALID
// (terminal) for a table the tail cannot follow or a Where that does not
// parse; any other database error as [errcode.Postgres] codes it (a lost
// connection is X_POSTGRES_UNAVAILABLE, retried). No message quotes a row
// or the server's message.
package pgtail
