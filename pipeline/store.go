package pipeline

import (
	"context"
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pipekit/pipe/errcode"
)

// store is the worker's side of the database: claims, settles, renewals and
// step writes, each fenced on the claim.
type store struct {
	pool      *pgxpool.Pool
	completes *batcher[completion]
	steps     *batcher[stepWrite]
}

type completion struct {
	id     uuid.UUID
	claims int32
	result json.RawMessage
	leased bool // the run took a concurrency slot, whose lease row the settle frees
}

type stepWrite struct {
	id     uuid.UUID
	claims int32
	kind   string
	step   string
	data   json.RawMessage
}

const flushTimeout = 30 * time.Second

func newStore(pool *pgxpool.Pool) *store {
	s := &store{pool: pool}
	s.completes = newBatcher(1000, 1, s.flushCompletions)
	s.steps = newBatcher(1000, 2, s.flushSteps)
	return s
}

func (s *store) close() {
	s.completes.close()
	s.steps.close()
}

type claimRequest struct {
	queues      []string
	rooms       []int32
	room        *int32 // across every queue (MaxInFlight's); nil: no cap
	names       []string
	noDeadNames []string
	workerID    string
	lease       time.Duration
}

// claim runs one claim pass; it answers the claimed rows and the ids of runs
// it buried because their final attempt's lease lapsed.
func (s *store) claim(ctx context.Context, r claimRequest) ([]*claimed, []*claimed, error) {
	var out, buried []*claimed
	args := []any{r.queues, r.rooms, r.names, r.workerID, r.noDeadNames, r.lease, r.room}
	err := retryMoved(ctx, s.pool, func() error {
		out, buried = nil, nil
		return s.inTx(ctx, claimSettings, sqlClaim, args, s.scanClaimed(&out, &buried))
	})
	if err != nil {
		return nil, nil, err
	}
	return out, buried, nil
}

// scanClaimed scans the claim's rows into the claimed and the buried.
func (s *store) scanClaimed(out, buried *[]*claimed) func(pgx.Rows) error {
	return func(rows pgx.Rows) error {
		var isClaim bool
		c := &claimed{}
		if err := rows.Scan(&isClaim, (*[16]byte)(&c.id), (*[16]byte)(&c.runID), &c.name, &c.queue, &c.tenant, &c.input,
			&c.attempt, &c.maxAttempt, &c.claims, &c.hasSteps, &c.now, &c.concurrencyKey, &c.traceParent); err != nil {
			return err
		}
		if isClaim {
			*out = append(*out, c)
		} else {
			*buried = append(*buried, c)
		}
		return nil
	}
}

func (s *store) flushCompletions(ctx context.Context, items []completion) ([]bool, error) {
	ctx, cancel := context.WithTimeout(ctx, flushTimeout)
	defer cancel()
	ids, claims, results := make([]uuid.UUID, len(items)), make([]int32, len(items)), make([][]byte, len(items))
	var leased []uuid.UUID
	for i, c := range items {
		ids[i], claims[i], results[i] = c.id, c.claims, c.result
		if c.leased {
			leased = append(leased, c.id)
		}
	}
	landed, err := s.landed(ctx, sqlComplete, binaryIDs(ids), claims, results, binaryIDs(leased))
	if err != nil {
		return nil, err
	}
	return markLanded(ids, landed), nil
}

func (s *store) flushSteps(ctx context.Context, items []stepWrite) ([]bool, error) {
	ctx, cancel := context.WithTimeout(ctx, flushTimeout)
	defer cancel()
	n := len(items)
	ids, claims := make([]uuid.UUID, n), make([]int32, n)
	kinds, steps, data := make([]string, n), make([]string, n), make([][]byte, n)
	for i, w := range items {
		ids[i], claims[i], kinds[i], steps[i], data[i] = w.id, w.claims, w.kind, w.step, w.data
	}
	landed, err := s.landed(ctx, sqlAppendSteps, binaryIDs(ids), claims, kinds, steps, data)
	if err != nil {
		return nil, err
	}
	return markLanded(ids, landed), nil
}

// landed runs one batched statement and answers the ids it returned. A
// batch that failed before anything reached the server (a pooled connection
// the server had closed) is sent again at once, so that one dead connection
// does not fail every run of the batch.
func (s *store) landed(ctx context.Context, sql string, args ...any) (map[uuid.UUID]bool, error) {
	var got map[uuid.UUID]bool
	err := retryMoved(ctx, s.pool, func() error {
		for tries := 1; ; tries++ {
			got = map[uuid.UUID]bool{}
			err := s.inTx(ctx, batchSettings, sql, args, func(rows pgx.Rows) error {
				var id [16]byte
				if err := rows.Scan(&id); err != nil {
					return err
				}
				got[id] = true
				return nil
			})
			if err == nil || tries == 3 || !pgconn.SafeToRetry(err) || ctx.Err() != nil {
				return err
			}
		}
	})
	return got, err
}

// The planner settings of the worker's hot statements, set for their own
// transaction only (set_config(..., true) is SET LOCAL).
//
// Batched statements join their input arrays to pipe.jobs. With the planner
// free to pick a nested loop over unnest (it does when queue statistics are
// stale, as they are on a busy queue) a batch of n rows costs n²
// comparisons, so nested loops are off for them.
//
// They find their rows by id and run on a generic plan: a custom plan was
// made afresh at every execution (the generic one's estimate with unknown
// arrays is higher), and planning cost about as much as executing. The
// generic plan is made once per connection from the table's statistics and
// made again when they change.
const batchSettings = `select set_config('enable_nestloop', 'off', true), set_config('plan_cache_mode', 'force_generic_plan', true)`

// claimSettings keep the claim on its generic plan too: it reads each
// (queue, job name) pair through jobs_claimable, a plan that does not
// depend on how many rows a name has, so planning it afresh for every pass
// (half a millisecond, as much as running it) bought nothing. Sequential
// scans are off for it: a plan made while the table is empty (a fresh
// database, or one just cleaned up) would otherwise read the whole table
// on every pass for as long as the connection keeps it. And JIT is off:
// the cost a disabled scan adds to a plan, for a table only ever scanned,
// would pass jit_above_cost and compile the statement at every pass (12 ms
// each, 90 ms the first; pipe.now()'s read of pipe.clock was such a scan
// until migration 0026 moved it into PL/pgSQL, out of the claim's plan).
const claimSettings = `select set_config('plan_cache_mode', 'force_generic_plan', true), set_config('enable_seqscan', 'off', true), set_config('jit', 'off', true)`

// inTx runs one statement in a transaction of its own under settings
// (batchSettings or claimSettings), sent as one pipelined batch: still one
// round trip.
func (s *store) inTx(ctx context.Context, settings, sql string, args []any, scan func(pgx.Rows) error) error {
	b := &pgx.Batch{}
	b.Queue("begin")
	b.Queue(settings)
	b.Queue(sql, args...)
	b.Queue("commit")
	br := s.pool.SendBatch(ctx, b)
	defer br.Close()
	for range 2 {
		if _, err := br.Exec(); err != nil {
			return err
		}
	}
	rows, err := br.Query()
	if err != nil {
		return err
	}
	for rows.Next() {
		if err := scan(rows); err != nil {
			rows.Close()
			return err
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	_, err = br.Exec()
	return err
}

func markLanded(ids []uuid.UUID, landed map[uuid.UUID]bool) []bool {
	out := make([]bool, len(ids))
	for i, id := range ids {
		out[i] = landed[id]
	}
	return out
}

// complete settles a run done; false means its claim moved on.
func (s *store) complete(ctx context.Context, row *claimed, result json.RawMessage, leased bool) (bool, error) {
	return s.completes.do(ctx, completion{id: row.id, claims: row.claims, result: result, leased: leased})
}

// appendStep journals a step event fenced on row's claim.
func (s *store) appendStep(ctx context.Context, row *claimed, kind, step string, data json.RawMessage) error {
	ok, err := s.steps.do(ctx, stepWrite{id: row.id, claims: row.claims, kind: kind, step: step, data: data})
	if err != nil {
		return errcode.Postgres(ctx, err, "step "+step+": journal write")
	}
	if !ok {
		return leaseLostErr(row.name, step)
	}
	return nil
}

func leaseLostErr(job, step string) error {
	return errcode.New(errcode.JobLeaseLost, "job %s: step %s not written: this attempt no longer holds the run", job, step).
		WithFix("none: the lease lapsed and another claim owns the run; keep steps shorter than the lease")
}

// stepTx runs fn in a transaction, then fences the claim and journals the
// step in that same transaction, so the effect and the completion commit
// together or not at all.
func (s *store) stepTx(ctx context.Context, row *claimed, step string, fn func(pgx.Tx) (json.RawMessage, error)) (json.RawMessage, error) {
	var raw json.RawMessage
	var fnErr error
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if raw, fnErr = fn(tx); fnErr != nil {
			return txFailure(ctx, tx, fnErr, "step "+step)
		}
		if cause := context.Cause(ctx); cause != nil {
			return abortedErr(row.name, step, cause)
		}
		var id uuid.UUID
		err := tx.QueryRow(ctx, sqlFenceStep, row.id, row.claims, step, raw).Scan(&id)
		if err == pgx.ErrNoRows {
			return leaseLostErr(row.name, step)
		}
		return err
	})
	if err != nil && fnErr == nil {
		err = errcode.Postgres(ctx, err, "step "+step)
	}
	return raw, err
}

// txFailure codes the failure of a body's statement in a transaction pipe
// began for it: when the transaction's connection is gone, the database
// went away (a raw network error says no more); a server error is coded by
// its SQLSTATE; anything else is the body's own and stays as it is.
func txFailure(ctx context.Context, tx pgx.Tx, err error, what string) error {
	if errcode.IsPostgres(err) || tx.Conn().IsClosed() {
		return errcode.Postgres(ctx, err, what)
	}
	return err
}

// fail settles one failed attempt; it answers whether the fence held.
func (s *store) fail(ctx context.Context, row *claimed, state string, delay time.Duration, errJSON json.RawMessage, kind string) (bool, error) {
	var runAt time.Time
	err := retryMoved(ctx, s.pool, func() error {
		return s.pool.QueryRow(ctx, sqlFail, row.id, row.claims, state, delay, errJSON, kind).Scan(&runAt)
	})
	if err == pgx.ErrNoRows {
		return false, nil
	}
	return err == nil, err
}

// deferRun hands a run back uncounted, ready again after delay, journalled
// as kind (interrupted, busy, rate-limited).
func (s *store) deferRun(ctx context.Context, row *claimed, delay time.Duration, kind string, data json.RawMessage) (bool, error) {
	var id uuid.UUID
	err := retryMoved(ctx, s.pool, func() error {
		return s.pool.QueryRow(ctx, sqlDefer, row.id, row.claims, delay, kind, data).Scan(&id)
	})
	if err == pgx.ErrNoRows {
		return false, nil
	}
	return err == nil, err
}

// renewal is what a renewal found of one held run.
type renewal int

const (
	renewed   renewal = iota + 1 // the lease is extended
	busy                         // locked by another statement, still this worker's
	cancelled                    // an operator cancelled it
)

// renew extends the leases of held runs. It answers, per id still this
// worker's, whether the renewal landed, the row was busy under another
// statement's lock, or an operator cancelled the run.
func (s *store) renew(ctx context.Context, rows []*claimed, lease time.Duration) (map[uuid.UUID]renewal, error) {
	ids, claims := make([]uuid.UUID, len(rows)), make([]int32, len(rows))
	for i, r := range rows {
		ids[i], claims[i] = r.id, r.claims
	}
	var held map[uuid.UUID]renewal
	err := retryMoved(ctx, s.pool, func() error {
		held = map[uuid.UUID]renewal{}
		return s.inTx(ctx, batchSettings, sqlRenew, []any{binaryIDs(ids), claims, lease}, s.scanRenewal(held))
	})
	return held, err
}

// scanRenewal scans renew's rows into held.
func (s *store) scanRenewal(held map[uuid.UUID]renewal) func(pgx.Rows) error {
	return func(rows pgx.Rows) error {
		var id [16]byte
		var landed *bool
		if err := rows.Scan(&id, &landed); err != nil {
			return err
		}
		switch {
		case landed == nil:
			held[id] = cancelled
		case *landed:
			held[id] = renewed
		default:
			held[id] = busy
		}
		return nil
	}
}

// acquireSlot takes a concurrency slot for row, or keeps its own.
func (s *store) acquireSlot(ctx context.Context, row *claimed, key string, limit int, ttl time.Duration) (bool, error) {
	var ok bool
	err := s.pool.QueryRow(ctx, `select pipe.acquire_slot($1, $2, $3, $4, $5)`, key, limit, row.id, row.claims, ttl).Scan(&ok)
	return ok, err
}

var sqlOrphans = mustQuery("orphans")

// handBackOrphans hands back the runs running under workerID that it does
// not own (their claim's answer was lost), uncounted; it answers how many.
func (s *store) handBackOrphans(ctx context.Context, workerID string, owned []uuid.UUID) (int64, error) {
	tag, err := s.pool.Exec(ctx, sqlOrphans, workerID, binaryIDs(owned))
	return tag.RowsAffected(), err
}

// binaryIDs hands pgx the ids as [16]byte, which it encodes as binary uuids
// (a uuid.UUID goes through its text form).
func binaryIDs(ids []uuid.UUID) [][16]byte {
	out := make([][16]byte, len(ids))
	for i, id := range ids {
		out[i] = id
	}
	return out
}
