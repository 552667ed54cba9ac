// Package backfill reworks every row of a big live table in the background:
// a pass walks the table (or a query with a declared key) in key order, a
// batch at a time — never OFFSET — and commits each batch's effect with the
// pass's checkpoint in one transaction fenced on the run's claim, so every
// row is changed exactly once however often the pass is killed, retried or
// resumed.
//
// # Declaring a pass
//
//	var fillCents = backfill.MustNew("fill-cents", backfill.PassKey, backfill.Options[backfill.Request]{
//		Table: pg.Relation{Name: "orders"},
//		SQL:   `update orders set total_cents = round(total * 100) where id between $1 and $2`,
//	})
//
// [New] answers a [pipeline.Job]: enqueue it, run it with a worker, see it
// in `pipe jobs show` (its status document is the cursor and the counts).
// A batch acts in one of two ways:
//
//   - SQL: one UPDATE, DELETE or INSERT … SELECT over the batch's range,
//     $1 its first key and $2 its last, both inclusive. The statement's
//     contract is to write only inside that range; pipe refuses what is not
//     one such statement or names no range, and the server refuses unknown
//     columns when the pass is planned (`pipe verify` asks too).
//   - Handle: Go handed the batch's rows and its transaction. What it writes
//     through the transaction is exactly once; what it does outside the
//     database is at-least-once (a batch cut before its commit is handed to
//     the next attempt).
//
// # Adaptive and polite
//
// The batch size moves after each batch toward Options.Target (200ms), by
// at most half or double a step, within MinBatch and MaxBatch; Rate caps
// the rows a second over any second (a pause is not banked, and a batch is
// at most a quarter of a second's rows). Each batch runs under a short lock_timeout (50ms) and
// statement_timeout (5s): a batch that meets a lock the application holds
// is rolled back and retried smaller after a back-off, instead of queueing
// behind it (and making the application queue behind the pass). Between
// batches the pass waits while the database is unhealthy — a replica
// lagging (pg_stat_replication.replay_lag, read on the primary), a long
// transaction of the pass's own database holding back vacuum, the
// transaction id age near wraparound ([Health]) — or an operator holds it
// ([Pause]), saying why in the ledger.
//
// # The ledger
//
// pipe.backfills holds one row per pass: target, state, cursor, rows so
// far, batches, batch size, rate, the catalog's estimate of the rows and
// the ETA, why it waits, the last error's code. [List], [Show], [Pause],
// [Resume] and [Cancel] read and steer it (`pipe backfill …`). A statement
// that fails on a batch fails the attempt; the job core retries it, then
// dead-letters it with the cursor kept, and `pipe jobs retry` resumes from
// the cursor.
//
// # Enqueueing one job per row
//
// [EnqueueAll] enqueues a job for every row of a query, a page at a time,
// past the 10,000 inputs EnqueueMany takes (X_JOB_ENQUEUE_BATCH_TOO_LARGE).
package backfill
