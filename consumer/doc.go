// Package consumer follows outside feeds — a vendor's cursor, a queue, a
// change stream — with a cursor: one running body per key, each batch's
// effect and the cursor past it committed in one transaction, and a
// supervising task that restarts keys that stopped. A crash re-delivers at
// most the batch in hand and never skips one.
//
// A consumer is a factory over the job core, not a primitive of its own:
// [New] declares a [pipeline.Job] whose runs follow one key each, an arm job
// and a [pipeline.Task], so retries, dead letter, `pipe jobs show`, drains
// and the operator commands apply to it unchanged.
//
//	var syncOrders = consumer.MustNew(consumer.Options[VendorOrder, string]{
//		Name:   "sync-orders",
//		Tenant: func(key string) string { return key },
//		Keys:   func(ctx context.Context, tx pgx.Tx) ([]string, error) { return accounts.Connected(ctx, tx) },
//		Open: func(ctx context.Context, key, cursor string) (consumer.Feed[VendorOrder], error) {
//			return vendor.Stream(ctx, key, cursor), nil
//		},
//		Handle: func(ctx context.Context, tx pgx.Tx, key string, items []VendorOrder) (string, error) {
//			if err := orders.UpsertAll(ctx, tx, items); err != nil {
//				return "", err
//			}
//			return items[len(items)-1].Cursor, nil
//		},
//		Cursor: consumer.StoredCursor[string](),
//		Batch:  100,
//		Rearm:  time.Minute,
//		Lag: func(ctx context.Context, tx pgx.Tx, key, cursor string) (int64, error) {
//			return vendor.Behind(ctx, key, cursor)
//		},
//	})
//
//	reg, _ := pipeline.NewRegistry(syncOrders.Jobs()...)           // the workers run it
//	sched, _ := pipeline.NewScheduler(pool, pipeline.SchedulerConfig{ // the supervisor re-arms it
//		Tasks: []*pipeline.Task{syncOrders.Supervisor()}})
//	syncOrders.Arm(ctx, pool) // or wait for the first rearm
//
// # One runner per key
//
// A key's run is the job Name with input {key}. Its idempotency key is
// consumer:<name>:<key>, so there is one live row per key, and it runs under
// a keyed concurrency of one that waits ([pipeline.Concurrency]{Limit: 1,
// WhenBusy: Wait}), so two workers never run one key at once — not even a
// worker whose lease lapsed, since every batch commits fenced on the
// attempt's claim ([pipeline.FencedTx]). Parallelism is more keys. Each run
// holds a worker slot for as long as it follows its feed: the run job's
// queue is the consumer's name by default, so that a worker's slots for it
// (`pipe worker --queue sync-orders=50`) are its own.
//
// # A batch
//
// The run loads the key's cursor (Cursor.Load), opens the feed there
// (Open) and reads batches of up to Batch items ([Feed]). Handle writes a
// batch's effect through the transaction it is handed and answers the
// cursor past the batch; Cursor.Save stores that cursor in the same
// transaction, with the run's status; the transaction commits only while
// the attempt still holds the run. Effect and cursor commit together or not
// at all: a crash, a failed Handle or a lost lease leaves the cursor on the
// last committed batch and the batch in hand is delivered again. Delivery
// is at least once, so Handle must be idempotent per item (upsert by the
// item's own id).
//
// A partly filled batch commits after [Linger] (50 ms) without a next item,
// so a quiet stream never holds items read and uncommitted. With nothing in
// hand a read waits up to [IdleWait] (1 s) before the run looks up.
//
// [StoredCursor] keeps cursors in pipe.consumer_cursors (the cursor's JSON,
// per consumer and key); an app that keeps its cursors beside its data
// declares its own Load and Save.
//
// # Ending, failing, draining
//
// A consumer has no timeout (declaring one is X_CONSUMER_INVALID): a run
// ends when its feed ends (io.EOF: the run is done, answering [Result]) or
// a drain stops it. On a drain (SIGTERM: X_DRAINING on the run's context)
// the batch in hand commits — Handle runs, or finishes, under a context the
// drain does not cancel (a lost lease does) — and the run is interrupted:
// back to ready with the attempt uncounted, the cursor on the last
// committed batch. An error from Open, Handle, Save, Lag or the feed fails
// the attempt through the job's Retry and dead letter, as any job's; items
// read before a feed error are committed first.
//
// # Arming
//
// The supervisor task <name>.supervisor fires at every Rearm (whole minutes
// dividing an hour, on the minute, UTC) and enqueues the arm job
// <name>.arm, which asks Keys and enqueues each key in one transaction: a
// no-op for a key whose run is live (deduped), a fresh run for a key whose
// run ended — done, failed or dead. So a dead key is back within a rearm.
// The arm job runs in ArmQueue ("default"), never behind the running keys.
//
// # Self-enqueue
//
// Open or Handle calling the consumer's own [Consumer.Enqueue] or
// [Consumer.Arm] is X_CONSUMER_SELF_ENQUEUE, terminal: the enqueue of its
// own key would dedupe onto the running row and start nothing, and another
// key's is the arm's job. The run's context carries a marker the
// consumer's enqueues check, and a batch whose Handle tried fails with the
// code even when Handle swallowed the error.
//
// # Lag and status
//
// Lag, when declared, is measured in a transaction of its own after the
// first batch, then every LagEvery (5 s) while batches flow and at once when
// the feed goes quiet (never twice in a second), and reported as the run's
// progress (done, done+lag) when it changed. Every batch writes the run's
// status document, {"consumer": {key, items, batches}}, stamped with the
// database clock. [StatusOf] reads both back for `pipe jobs show`:
// {key, lastBatchAt, lag, items, batches}.
//
// # Sources
//
// Package consumer/pgtail follows an app table by an ordered id, handling
// rows committed out of order; package consumer/jetstream follows a NATS
// JetStream stream through a durable pull consumer. [FromChan] and
// [FeedFunc] adapt anything else.
//
// A feed that is a [Committer] hears of each batch after it commits (a
// broker's acknowledgement). A source whose feed must hear of them calls
// [NeedsCommitted] from its Open: a feed that then reaches the run without
// Committed — an app's wrapper that does not forward it — is refused before
// it is read, X_CONSUMER_FEED_INVALID, rather than leave the broker
// redelivering or stalled.
//
// # Errors
//
// X_CONSUMER_INVALID (a declaration: every fault named), X_CONSUMER_SELF_ENQUEUE,
// X_CONSUMER_KEY_INVALID (an empty key or one over 200 characters),
// X_CONSUMER_FEED_INVALID (no feed, more items than asked for, or a feed
// without Committed over a source that needs it) are terminal. The stored
// cursor's database errors are coded by errcode.Postgres. No message quotes
// a key, an item or a cursor.
package consumer
