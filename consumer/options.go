package consumer

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/pipeline"
)

// Defaults and fixed settings.
const (
	// DefaultBatch is the default of [Options].Batch.
	DefaultBatch = 100
	// DefaultRearm is the default of [Options].Rearm.
	DefaultRearm = time.Minute
	// DefaultLagEvery is the default of [Options].LagEvery.
	DefaultLagEvery = 5 * time.Second
	// Linger is how long a partly filled batch waits for a next item before
	// it commits (the seed's CONSUMER_LINGER_MS), so a quiet stream never
	// holds items read and uncommitted.
	Linger = 50 * time.Millisecond
	// IdleWait is the longest one read waits with no item in hand before the
	// run looks up from the feed (to measure its lag, to notice a drain the
	// feed ignores).
	IdleWait = time.Second
	// MaxKeyLen is the longest key: it is the run's concurrency key.
	MaxKeyLen = 200
)

// Options declare a consumer of items T with cursors C. Each field's
// comment gives its default; a fault is refused by [New] with
// X_CONSUMER_INVALID naming every fault.
type Options[T, C any] struct {
	// Name is the consumer's durable name: its job's name (and, by default,
	// its queue), "<Name>.arm" its arm job's and "<Name>.supervisor" its
	// task's. Required.
	Name string
	// Keys answers what should be running: one key, or one per account.
	// The arm job calls it, inside its transaction and under no tenant, and
	// starts every key that is not running. Required.
	Keys func(ctx context.Context, tx pgx.Tx) ([]string, error)
	// Tenant answers the tenant a key's run acts for. Nil: no tenant.
	Tenant func(key string) string
	// Open answers the feed of key from cursor on: every item after the
	// one cursor was returned for. cursor is the zero C before the first
	// batch of a key commits. The feed lives as long as the run; ctx ends
	// when the run does. Required.
	Open func(ctx context.Context, key string, cursor C) (Feed[T], error)
	// Handle writes the effect of one batch through tx and answers the
	// cursor past it. The framework saves that cursor with Cursor.Save in
	// the same transaction, so the effect and the cursor commit together or
	// not at all. Delivery is at least once (a batch in hand at a crash is
	// delivered again), so Handle must be idempotent per item. Required.
	Handle func(ctx context.Context, tx pgx.Tx, key string, items []T) (C, error)
	// Cursor loads and saves the cursor of a key. Both are required;
	// [StoredCursor] keeps cursors in pipe's own table.
	Cursor Cursor[C]
	// Batch is the most items one transaction handles. Default 100 (zero);
	// a negative batch is refused.
	Batch int
	// Rearm is how often the supervisor task enqueues the arm job: whole
	// minutes dividing an hour (1m, 2m, 3m, 4m, 5m, 6m, 10m, 12m, 15m, 20m,
	// 30m, 60m), on the minute, UTC. Default 1m.
	Rearm time.Duration
	// Lag answers how many items are behind cursor, for `pipe jobs show`
	// and the run's progress (done, done+lag). Nil: the run reports no lag.
	Lag func(ctx context.Context, tx pgx.Tx, key string, cursor C) (int64, error)
	// LagEvery is the most time between two measures of the lag while
	// batches flow; a feed that goes quiet is measured at once. Never twice
	// in a second (the least time between two progress writes). A feed
	// that stays quiet, nothing committed since the last measure, is
	// measured at most every IdleLagEvery (a minute), so that an idle run
	// costs its feed's looks and little more. Default 5s; negative is
	// refused.
	LagEvery time.Duration
	// ArmQueue is the queue the arm job runs in. Default "default": not the
	// consumer's own queue, whose slots its running keys hold.
	ArmQueue string
	// Job are the run job's options: Queue (default Name), Retry, Verify.
	// Timeout, Concurrency, Tenant and Compensates are the consumer's own
	// and refused here.
	Job pipeline.JobOptions[Input, Result]
}

// Cursor loads and saves a key's cursor, each through the transaction it is
// given: Load in the transaction that starts a run, Save in the batch's own.
type Cursor[C any] struct {
	// Load answers the cursor saved for key, or the zero C if there is none.
	Load func(ctx context.Context, tx pgx.Tx, key string) (C, error)
	// Save stores next as key's cursor.
	Save func(ctx context.Context, tx pgx.Tx, key string, next C) error
}

// Input is the input of a consumer's run: the key it follows.
type Input struct {
	Key string `json:"key"`
}

// Result is what a run answers when its feed ends.
type Result struct {
	// Items and Batches count what the run committed, over all its
	// attempts.
	Items   int64 `json:"items"`
	Batches int64 `json:"batches"`
}

// ArmInput is the input of a consumer's arm job.
type ArmInput struct{}

// ArmResult is what an arm run answers.
type ArmResult struct {
	// Keys is how many keys Keys answered; Started how many runs the arm
	// enqueued; Running how many keys already had a live run (deduped).
	Keys    int `json:"keys"`
	Started int `json:"started"`
	Running int `json:"running"`
}
