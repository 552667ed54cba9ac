package backfill

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// New declares a backfill: a job whose run is one pass over a table (or a
// query) in key order, a batch at a time, each batch's effect committed with
// the pass's checkpoint in one transaction fenced on the run's claim. A
// killed or failed pass resumes after the last batch that committed —
// through the job core's retry, or `pipe jobs retry` of a dead-lettered run.
// The job is a [pipeline.Job] like any other: enqueue it, see it in `pipe
// jobs show` (its status document is the cursor and the counts), and in the
// ledger, pipe.backfills (`pipe backfill list`).
//
// key answers a run's idempotency key, a required argument as in
// [pipeline.NewJob]: while a pass of the same key is live, an enqueue
// answers it. A bad declaration is X_BACKFILL_INVALID naming every fault;
// the catalog — the key, the columns, the statement — is checked by each
// pass's first step and by `pipe verify`.
func New[In any](name string, key func(In) string, o Options[In]) (*pipeline.Job[In, Result], error) {
	o, err := o.withDefaults(name)
	if err != nil {
		return nil, err
	}
	d := &declaration[In]{name: name, o: o}
	jo := o.Job
	own := jo.Verify
	jo.Verify = func(ctx context.Context, db pipeline.DB) error {
		if err := d.verify(ctx, db); err != nil {
			return err
		}
		if own != nil {
			return own(ctx, db)
		}
		return nil
	}
	return pipeline.NewJob(name, key, d.run, jo)
}

// MustNew is [New] that panics on a bad declaration, for package-level
// variables.
func MustNew[In any](name string, key func(In) string, o Options[In]) *pipeline.Job[In, Result] {
	j, err := New(name, key, o)
	if err != nil {
		panic(err)
	}
	return j
}

// declaration is one declared backfill; run is its body.
type declaration[In any] struct {
	name string
	o    Options[In]
}

// verify plans the pass in a rolled-back transaction.
func (d *declaration[In]) verify(ctx context.Context, db pipeline.DB) error {
	tx, err := db.Begin(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback(ctx) }()
	_, err = d.makePlan(ctx, tx)
	return err
}

// run plans the pass once, then works batches until none is left.
func (d *declaration[In]) run(ctx context.Context, r *pipeline.Run[In]) (Result, error) {
	p, err := pipeline.StepTx(ctx, "plan", func(ctx context.Context, tx pgx.Tx) (plan, error) {
		p, err := d.makePlan(ctx, tx)
		if err == nil {
			_, err = tx.Exec(ctx, sqlLedgerOpen, r.RunID, r.ID, d.name, p.Target, d.o.Batch, p.Total)
		}
		return p, errcode.Redact(ctx, err, "backfill "+d.name+": plan")
	})
	if err != nil {
		return Result{}, err
	}
	h, err := pipeline.Hold(ctx)
	if err != nil {
		return Result{}, err
	}
	defer h.Release()
	w := &walker[In]{d: d, plan: p, src: p.source(), runID: r.RunID, conn: h.Conn()}
	if d.o.Args != nil {
		w.args = d.o.Args(r.Input)
	}
	if err := w.load(ctx); err != nil {
		return Result{}, err
	}
	return w.walk(ctx)
}

// walker is one attempt's walk: where it is and what the pass has done.
type walker[In any] struct {
	d       *declaration[In]
	plan    plan
	src     source
	runID   string
	conn    querier // the held connection: the ledger's reports, the health
	args    []any
	cursor  *string
	rows    int64
	batches int64
	size    int
	checked time.Time // the last health reading
}

// load reads where the pass resumes.
func (w *walker[In]) load(ctx context.Context) error {
	err := w.conn.QueryRow(ctx, sqlLedgerLoad, w.runID).Scan(&w.cursor, &w.rows, &w.batches, &w.size)
	return errcode.Postgres(ctx, err, "backfill "+w.d.name+": load the ledger")
}

// walk works batches until none is left: each waits while the pass is
// paused or the database unhealthy, adapts the size to the target, keeps
// to the rate, and backs off smaller when it meets a lock.
func (w *walker[In]) walk(ctx context.Context) (Result, error) {
	pace, fails := pacer{rate: w.d.o.Rate}, 0
	w.size = min(w.size, rateCap(w.d.o.Rate, w.d.o.MinBatch, w.d.o.MaxBatch))
	for {
		if err := w.gate(ctx); err != nil {
			return Result{}, err
		}
		began := time.Now()
		out, err := w.batch(ctx, w.size)
		if err != nil {
			if fails, err = w.failed(ctx, err, fails); err != nil {
				return Result{}, err
			}
			continue
		}
		fails = 0
		if out.n == 0 {
			return w.result(), nil
		}
		w.advance(out)
		_ = pipeline.Progress(ctx, w.rows, w.total(), "rows")
		if err := sleep(ctx, pace.wait(out.n, began, time.Now())); err != nil {
			return Result{}, err
		}
	}
}

// advance moves the walker past a committed batch and sizes the next.
func (w *walker[In]) advance(out batchOut) {
	w.cursor, w.rows, w.batches = &out.last, out.status.Rows, out.status.Batches
	w.size = nextSize(w.size, out.n, out.took, w.d.o.Target, w.d.o.MinBatch, rateCap(w.d.o.Rate, w.d.o.MinBatch, w.d.o.MaxBatch))
}

// failed answers what a batch that failed leads to: a lock or a timeout is
// retried smaller after a back-off (fails counts them in a row); any other
// failure is the attempt's, its code kept in the ledger.
func (w *walker[In]) failed(ctx context.Context, err error, fails int) (int, error) {
	if ctx.Err() != nil {
		return fails, err
	}
	if retriable(err) && (lockMet(err) || w.size > w.d.o.MinBatch) {
		fails++
		w.size = smaller(w.size, w.d.o.MinBatch)
		reason := "a batch met a lock another session holds: retrying smaller"
		if !lockMet(err) {
			reason = "a batch ran past the statement timeout: retrying smaller"
		}
		w.report(ctx, "waiting", reason, "")
		return fails, sleep(ctx, backoff(fails))
	}
	w.report(ctx, "failed", "", string(errcode.CodeOf(err)))
	return fails, err
}

func (w *walker[In]) result() Result {
	r := Result{Rows: w.rows, Batches: w.batches}
	if w.cursor != nil {
		r.Cursor = *w.cursor
	}
	return r
}

func (w *walker[In]) total() int64 {
	if w.plan.Total == nil {
		return 0
	}
	return max(*w.plan.Total, w.rows)
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return errcode.Postgres(ctx, context.Cause(ctx), "backfill: wait")
	}
}
