package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/internal/options"
)

// MaxEnqueueBatch is the most inputs one EnqueueMany call takes.
const MaxEnqueueBatch = 10_000

// enqueueChunk is how many inputs one enqueue statement writes.
const enqueueChunk = 1_000

// EnqueueOptions adjust one enqueue.
type EnqueueOptions struct {
	// RunID names the run: a lowercase UUID, else X_ID_INVALID before
	// anything is written. Default: the job's own id. Not allowed with
	// EnqueueMany.
	RunID string
	// Delay holds the run back from the database clock's now. Zero runs it
	// at once.
	Delay time.Duration
	// RunAt holds the run until an instant; it wins over Delay.
	RunAt time.Time
	// Tenant, when set, is the tenant the caller acts for. A job whose
	// declared tenant of the input names another is X_JOB_TENANT_MISMATCH
	// before anything is queued. A job declaring no tenant stores this one.
	Tenant string
}

// EnqueueResult names the job an enqueue answered: the row it wrote, or the
// live row holding the same key (Deduped).
type EnqueueResult struct {
	ID      string `json:"id"`
	RunID   string `json:"runId"`
	Deduped bool   `json:"deduped"`
}

// Enqueue queues one run of the job through db. Given the caller's pgx.Tx it
// commits or rolls back with it: rolled back, the job never existed. While a
// live row (ready, delayed, running, suspended) holds the same name, tenant
// and key, the enqueue answers that row with Deduped set; the first payload
// wins. It takes at most one EnqueueOptions; a second is X_INVARIANT.
func (j *Job[In, Out]) Enqueue(ctx context.Context, db DB, in In, opts ...EnqueueOptions) (EnqueueResult, error) {
	o, err := options.One("job "+j.spec.name+": enqueue", opts)
	if err != nil {
		return EnqueueResult{}, err
	}
	if o.RunID != "" && !validRunID(o.RunID) {
		return EnqueueResult{}, errcode.New(errcode.IDInvalid, "job %s: the run id is not a lowercase UUID", j.spec.name).
			WithFix("pass a lowercase UUID such as 0190c6f0-7a36-7cc1-a3f2-5e0c2b7d9a11, or leave RunID empty")
	}
	if o.RunID != "" {
		if err := j.runIDFree(ctx, db, o.RunID); err != nil {
			return EnqueueResult{}, err
		}
	}
	noteSingle(ctx, j.spec.name)
	res, err := j.enqueue(ctx, db, []In{in}, o, wakeAllowed)
	if err != nil {
		return EnqueueResult{}, err
	}
	return res[0], nil
}

// runIDFree refuses a run id a finished run was enqueued under. An open
// run's is refused by the enqueue itself (runs_open_run_id); a finished
// run's lives in a partition no unique index spans, so it is looked for
// here, through the partial run-id indexes of the finished partitions.
func (j *Job[In, Out]) runIDFree(ctx context.Context, db DB, runID string) error {
	var taken bool
	if err := db.QueryRow(ctx, `select exists (select 1 from pipe.jobs
		where run_id = $1 and run_id <> id and state in ('done', 'failed', 'dead', 'cancelled'))`, runID).Scan(&taken); err != nil {
		return enqueueErr(ctx, j.spec.name, err)
	}
	if taken {
		return errcode.New(errcode.IDInvalid, "job %s: the run id already names a run", j.spec.name).
			WithFix("pass a fresh run id, or leave RunID empty")
	}
	return nil
}

// EnqueueMany queues many runs of the job in one statement per 1,000 inputs
// and answers one result per input, in input order. Two inputs sharing a key
// are one job: the second is Deduped. Every refusal comes before the first
// write. Through a transaction the batch commits or vanishes whole; through a
// pool it is atomic per 1,000. It takes at most one EnqueueOptions.
func (j *Job[In, Out]) EnqueueMany(ctx context.Context, db DB, ins []In, opts ...EnqueueOptions) ([]EnqueueResult, error) {
	o, err := options.One("job "+j.spec.name+": enqueue many", opts)
	if err != nil {
		return nil, err
	}
	if len(ins) > MaxEnqueueBatch {
		return nil, errcode.New(errcode.JobEnqueueBatchTooLarge, "job %s: %d inputs is more than %d", j.spec.name, len(ins), MaxEnqueueBatch).
			WithFix("split the inputs into batches of at most 10,000, or page a query with backfill.EnqueueAll")
	}
	if o.RunID != "" {
		return nil, errcode.New(errcode.Invariant, "job %s: EnqueueMany takes no RunID", j.spec.name).
			WithFix("enqueue one by one to name each run")
	}
	return j.enqueue(ctx, db, ins, o, wakeAllowed)
}

var runIDPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

func validRunID(s string) bool { return runIDPattern.MatchString(s) }

// enqueueRows is the column-wise form of a batch, as the statement takes it.
type enqueueRows struct {
	ids, runIDs     []uuid.UUID
	tenants, keys   []string
	ckeys           []*string
	inputs          [][]byte
	firstIndexByKey map[[2]string]int
}

func (j *Job[In, Out]) prepare(ctx context.Context, ins []In, o EnqueueOptions) (*enqueueRows, error) {
	r := &enqueueRows{firstIndexByKey: make(map[[2]string]int, len(ins))}
	for i, in := range ins {
		key, err := j.KeyFor(in)
		if err != nil {
			return nil, err
		}
		raw, err := json.Marshal(in)
		if err != nil {
			return nil, errcode.Wrap(err, errcode.JobInputInvalid, "job %s: input %d does not encode as JSON", j.spec.name, i).
				WithFix("make the input type JSON-encodable")
		}
		id, err := uuid.NewV7()
		if err != nil {
			return nil, err
		}
		runID := id
		if o.RunID != "" {
			runID = uuid.MustParse(o.RunID)
		}
		tenant, err := j.tenantChecked(ctx, in, o.Tenant)
		if err != nil {
			return nil, err
		}
		ckey, err := j.ConcurrencyKeyFor(in)
		if err != nil {
			return nil, err
		}
		if j.spec.limit > 0 {
			r.ckeys = append(r.ckeys, &ckey)
		} else {
			r.ckeys = append(r.ckeys, nil)
		}
		if _, seen := r.firstIndexByKey[[2]string{tenant, key}]; !seen {
			r.firstIndexByKey[[2]string{tenant, key}] = i
		}
		r.ids, r.runIDs = append(r.ids, id), append(r.runIDs, runID)
		r.tenants, r.keys, r.inputs = append(r.tenants, tenant), append(r.keys, key), append(r.inputs, raw)
	}
	return r, nil
}

// wakePolicy answers whether an enqueue into queue through db notifies idle
// workers now: wakeAllowed (the throttle) for Enqueue and EnqueueMany,
// alwaysWake for a task's fire.
type wakePolicy func(db DB, queue string, now time.Time) bool

// alwaysWake notifies at every call.
func alwaysWake(DB, string, time.Time) bool { return true }

// enqueue is the one path every row of pipe.jobs is written by.
func (j *Job[In, Out]) enqueue(ctx context.Context, db DB, ins []In, o EnqueueOptions, wakes wakePolicy) ([]EnqueueResult, error) {
	rows, err := j.prepare(ctx, ins, o)
	if err != nil {
		return nil, err
	}
	out := make([]EnqueueResult, len(ins))
	for lo := 0; lo < len(ins); lo += enqueueChunk {
		hi := min(lo+enqueueChunk, len(ins))
		// The last chunk carries the wake, in its own statement.
		wake := hi == len(ins) && wakes(db, j.spec.queue, time.Now())
		if err := j.writeChunk(ctx, db, rows, lo, hi, o, wake, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (j *Job[In, Out]) writeChunk(ctx context.Context, db DB, r *enqueueRows, lo, hi int, o EnqueueOptions, wake bool, out []EnqueueResult) error {
	args := j.chunkArgs(ctx, r, lo, hi, o, wake)
	if r.freshChunkOf(db, lo, hi) && j.fresh.open() {
		ok, err := j.insertFresh(ctx, db, args, lo, hi, r, out)
		if ok || err != nil {
			return err
		}
		j.fresh.refused()
	}
	inserted, err := j.insert(ctx, db, args)
	if err != nil {
		return err
	}
	var missing []int
	for i := lo; i < hi; i++ {
		if inserted[r.ids[i]] {
			out[i] = EnqueueResult{ID: r.ids[i].String(), RunID: r.runIDs[i].String()}
		} else {
			missing = append(missing, i)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return j.resolveDeduped(ctx, db, r, missing, o, wake, out)
}

// insert runs the enqueue statement and answers the ids it inserted: an
// input whose key a live row holds is skipped.
func (j *Job[In, Out]) insert(ctx context.Context, db DB, args pgx.NamedArgs) (map[uuid.UUID]bool, error) {
	rows, err := db.Query(ctx, sqlEnqueue.SQL, sqlEnqueue.Args(args)...)
	if err != nil {
		return nil, enqueueErr(ctx, j.spec.name, err)
	}
	defer rows.Close()
	inserted := map[uuid.UUID]bool{}
	for rows.Next() {
		var id [16]byte
		if err := rows.Scan(&id); err != nil {
			return nil, enqueueErr(ctx, j.spec.name, err)
		}
		inserted[id] = true
	}
	return inserted, enqueueErr(ctx, j.spec.name, rows.Err())
}

// chunkArgs are the enqueue statement's parameters for inputs lo..hi.
func (j *Job[In, Out]) chunkArgs(ctx context.Context, r *enqueueRows, lo, hi int, o EnqueueOptions, wake bool) pgx.NamedArgs {
	var runAt *time.Time
	if !o.RunAt.IsZero() {
		runAt = &o.RunAt
	}
	return pgx.NamedArgs{
		"ids":              binaryIDs(r.ids[lo:hi]),
		"run_ids":          binaryIDs(r.runIDs[lo:hi]),
		"tenants":          r.tenants[lo:hi],
		"keys":             r.keys[lo:hi],
		"inputs":           r.inputs[lo:hi],
		"concurrency_keys": r.ckeys[lo:hi],
		"name":             j.spec.name,
		"queue":            j.spec.queue,
		"max_attempts":     j.spec.maxAttempts(),
		"run_at":           runAt,
		"delay":            o.Delay,
		"wake":             wake,
		"trace_parent":     traceParent(ctx),
		"sensitive":        j.spec.sensitive,
	}
}

// dedupeRounds bounds how often an input whose key's live row settled
// between the insert and the read of it is inserted again.
const dedupeRounds = 5

// resolveDeduped answers the inputs the insert skipped. An input repeating a
// key earlier in the call answers that input's run. Any other answers the
// live row holding its key, read in a statement of its own so that it sees
// a row a concurrent transaction committed while the insert waited on it;
// when that row settled between the insert and the read (a fast run, done
// already), the key is free again and the input is inserted anew.
func (j *Job[In, Out]) resolveDeduped(ctx context.Context, db DB, r *enqueueRows, missing []int, o EnqueueOptions, wake bool, out []EnqueueResult) error {
	var firsts, repeats []int
	for _, i := range missing {
		if r.firstIndexByKey[[2]string{r.tenants[i], r.keys[i]}] == i {
			firsts = append(firsts, i)
		} else {
			repeats = append(repeats, i)
		}
	}
	for round := 0; len(firsts) > 0; round++ {
		free, err := j.answerLive(ctx, db, r, firsts, out)
		if err != nil {
			return err
		}
		if len(free) > 0 && round == dedupeRounds {
			return errcode.New(errcode.Invariant, "job %s: a key's live row settled between every insert and read of it, %d times", j.spec.name, dedupeRounds+1).
				WithFix("retry the enqueue")
		}
		if firsts, err = j.insertAgain(ctx, db, r, free, o, wake, out); err != nil {
			return err
		}
	}
	for _, i := range repeats {
		res := out[r.firstIndexByKey[[2]string{r.tenants[i], r.keys[i]}]]
		res.Deduped = true
		out[i] = res
	}
	return nil
}

// answerLive answers each of inputs idx with the live row holding its key,
// and returns the inputs whose key no live row holds.
func (j *Job[In, Out]) answerLive(ctx context.Context, db DB, r *enqueueRows, idx []int, out []EnqueueResult) ([]int, error) {
	tenants, keys := make([]string, len(idx)), make([]string, len(idx))
	for n, i := range idx {
		tenants[n], keys[n] = r.tenants[i], r.keys[i]
	}
	live := map[[2]string]EnqueueResult{}
	if err := j.readLive(ctx, db, tenants, keys, live); err != nil {
		return nil, err
	}
	var free []int
	for _, i := range idx {
		res, ok := live[[2]string{r.tenants[i], r.keys[i]}]
		if !ok {
			free = append(free, i)
			continue
		}
		res.Deduped = true
		out[i] = res
	}
	return free, nil
}

// insertAgain inserts inputs idx, whose keys were found free, and answers
// those a live row took meanwhile.
func (j *Job[In, Out]) insertAgain(ctx context.Context, db DB, r *enqueueRows, idx []int, o EnqueueOptions, wake bool, out []EnqueueResult) ([]int, error) {
	if len(idx) == 0 {
		return nil, nil
	}
	inserted, err := j.insert(ctx, db, j.chunkArgs(ctx, r.pick(idx), 0, len(idx), o, wake))
	if err != nil {
		return nil, err
	}
	var taken []int
	for _, i := range idx {
		if inserted[r.ids[i]] {
			out[i] = EnqueueResult{ID: r.ids[i].String(), RunID: r.runIDs[i].String()}
		} else {
			taken = append(taken, i)
		}
	}
	return taken, nil
}

// pick answers the rows of inputs idx, in that order.
func (r *enqueueRows) pick(idx []int) *enqueueRows {
	p := &enqueueRows{}
	for _, i := range idx {
		p.ids, p.runIDs = append(p.ids, r.ids[i]), append(p.runIDs, r.runIDs[i])
		p.tenants, p.keys = append(p.tenants, r.tenants[i]), append(p.keys, r.keys[i])
		p.ckeys, p.inputs = append(p.ckeys, r.ckeys[i]), append(p.inputs, r.inputs[i])
	}
	return p
}

func (j *Job[In, Out]) readLive(ctx context.Context, db DB, tenants, keys []string, live map[[2]string]EnqueueResult) error {
	rows, err := db.Query(ctx, sqlLiveByKeys, j.spec.name, tenants, keys)
	if err != nil {
		return enqueueErr(ctx, j.spec.name, err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, runID uuid.UUID
		var tenant, key string
		if err := rows.Scan(&id, &runID, &tenant, &key); err != nil {
			return enqueueErr(ctx, j.spec.name, err)
		}
		live[[2]string{tenant, key}] = EnqueueResult{ID: id.String(), RunID: runID.String()}
	}
	return enqueueErr(ctx, j.spec.name, rows.Err())
}

func enqueueErr(ctx context.Context, name string, err error) error {
	if err == nil {
		return nil
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" && pgErr.ConstraintName == "runs_open_run_id" {
		return errcode.Wrap(err, errcode.IDInvalid, "job %s: the run id already names a run", name).
			WithFix("pass a fresh run id, or leave RunID empty")
	}
	return errcode.Postgres(ctx, err, "job "+name+": enqueue")
}

// safeErr answers a database failure as logs may print it: its code and
// SQLSTATE, never the server's message, which may quote a value.
func safeErr(err error) string {
	return errcode.Postgres(context.Background(), err, "database").Error()
}

// tenantChecked answers the tenant a run is stored under, refusing an explicit
// tenant the declared one contradicts.
func (j *Job[In, Out]) tenantChecked(ctx context.Context, in In, explicit string) (string, error) {
	if j.opts.Tenant == nil {
		return explicit, nil
	}
	declared := j.opts.Tenant(in)
	if declared == "" && j.opts.TenantRequired {
		return "", tenantMissing(j.spec.name)
	}
	if explicit != "" && explicit != declared {
		return "", errcode.New(errcode.JobTenantMismatch, "job %s: the input's tenant is not the tenant enqueueing it", j.spec.name).
			WithFix("enqueue the input as its own tenant")
	}
	return declared, j.checkAmbient(ctx, declared)
}
