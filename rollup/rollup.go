package rollup

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// New declares a rollup: a job whose runs re-read the source from the first
// instant of the bucket holding now - Lookback and write every bucket in one
// upsert on the key. The job is a [pipeline.Job] like any other: a task
// enqueues it, the core retries it, `pipe jobs show` shows its window and
// counts. A bad declaration is X_JOB_ROLLUP_INVALID naming every fault (a
// fault of the job options is the core's X_JOB_DECLARATION_INVALID); the
// catalog — the target's unique index, the source's columns and types — is
// checked when a worker starts and by `pipe verify` (Verify in the job
// options).
//
// key answers a run's idempotency key, a required argument as in
// [pipeline.NewJob]: while a run of the same key is live, an enqueue (a
// task's fire) answers it. A rollup of [Request] takes [WindowKey]; one whose
// input changes what a run reads (Args, a Points function) derives its key
// from what the input changes.
func New[In any](key func(In) string, o Options[In]) (*pipeline.Job[In, Result], error) {
	d, err := check(o)
	if err != nil {
		return nil, err
	}
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
	return pipeline.NewJob(o.Name, key, d.run, jo)
}

// MustNew is [New] that panics on a bad declaration, for package-level
// variables.
func MustNew[In any](key func(In) string, o Options[In]) *pipeline.Job[In, Result] {
	j, err := New(key, o)
	if err != nil {
		panic(err)
	}
	return j
}

// SQL answers the statement a run of o's SQL source executes, for reading
// and for EXPLAIN: its parameters are Where's own, then the unit, the zone
// and the window's first instant. A declaration with a Points function has
// none (""); a bad one is its X_JOB_ROLLUP_INVALID.
func SQL[In any](o Options[In]) (string, error) {
	d, err := check(o)
	if err != nil {
		return "", err
	}
	return d.stmt, nil
}

// window is a run's first step: the clock it reads by and the first instant
// it reads from. A retried attempt keeps them.
type window struct {
	Since time.Time `json:"since"`
	Now   time.Time `json:"now"`
}

// run computes the window, then upserts every bucket in one transaction.
func (d *declaration[In]) run(ctx context.Context, r *pipeline.Run[In]) (Result, error) {
	w, err := pipeline.StepTx(ctx, "window", func(ctx context.Context, tx pgx.Tx) (window, error) {
		w, err := d.window(ctx, tx, r.Input)
		return w, errcode.Redact(ctx, err, "rollup "+d.o.Name+": window")
	})
	if err != nil {
		return Result{}, err
	}
	return pipeline.StepTx(ctx, "upsert", func(ctx context.Context, tx pgx.Tx) (Result, error) {
		res, err := d.upsert(ctx, tx, r, w)
		// The source's Where or a cast in it can fail quoting a row.
		return res, errcode.Redact(ctx, err, "rollup "+d.o.Name+": upsert")
	})
}

// upsert writes every bucket of the window, under the rollup's lock.
func (d *declaration[In]) upsert(ctx context.Context, tx pgx.Tx, r *pipeline.Run[In], w window) (Result, error) {
	if _, err := tx.Exec(ctx, sqlLock, d.lockK+"/"+r.Tenant); err != nil {
		return Result{}, err
	}
	res := Result{Since: w.Since, Now: w.Now}
	var err error
	if d.stmt != "" {
		err = d.upsertSQL(ctx, tx, r.Input, &res)
	} else {
		err = d.upsertPoints(ctx, tx, r.Input, &res)
	}
	return res, err
}

func (d *declaration[In]) window(ctx context.Context, tx pgx.Tx, in In) (window, error) {
	var from *time.Time
	if t := d.from(in); !t.IsZero() {
		from = &t
	}
	var asOf *time.Time
	if t := d.asOf(in); !t.IsZero() {
		asOf = &t
	}
	var w window
	err := tx.QueryRow(ctx, sqlWindow, string(d.o.Bucket.Unit), d.o.Bucket.Zone, d.o.Lookback.Microseconds(), from, asOf).
		Scan(&w.Now, &w.Since)
	return w, err
}

// asOf answers the run's replayed now, or the zero time.
func (d *declaration[In]) asOf(in In) time.Time {
	if d.o.AsOf != nil {
		return d.o.AsOf(in)
	}
	if r, ok := any(in).(Request); ok {
		return r.AsOf
	}
	return time.Time{}
}

// from answers the run's backfill instant, or the zero time.
func (d *declaration[In]) from(in In) time.Time {
	if d.o.From != nil {
		return d.o.From(in)
	}
	if r, ok := any(in).(Request); ok {
		return r.From
	}
	return time.Time{}
}

// WindowKey is the idempotency key of a rollup of [Request]: "window" for a
// normal run and "from <instant>" for a backfill (with " as of <instant>"
// for a replay), so that a fire while the
// last normal run is still live is that run (the core scopes keys by name
// and tenant), and a backfill from one instant runs once at a time.
func WindowKey(r Request) string {
	key := "window"
	if !r.From.IsZero() {
		key = "from " + r.From.UTC().Format(time.RFC3339Nano)
	}
	if !r.AsOf.IsZero() {
		key += " as of " + r.AsOf.UTC().Format(time.RFC3339Nano)
	}
	return key
}

// upsertSQL runs the generated statement. A statement the server refuses
// to plan is explained by the catalog check, in words.
func (d *declaration[In]) upsertSQL(ctx context.Context, tx pgx.Tx, in In, res *Result) error {
	var args []any
	if d.o.Args != nil {
		args = d.o.Args(in)
	}
	if n := whereParams(d.o.Source.Where); len(args) != n {
		return errcode.New(errcode.JobRollupInvalid, "rollup %s: Source.Where takes %d parameters and Args answered %d", d.o.Name, n, len(args)).
			WithFix("answer one value from Args for each of Where's $1..$N")
	}
	args = append(args, string(d.o.Bucket.Unit), d.o.Bucket.Zone, res.Since)
	sp, err := tx.Begin(ctx)
	if err != nil {
		return err
	}
	stmt, err := d.statementIn(ctx, tx)
	if err != nil {
		_ = sp.Rollback(ctx)
		return err
	}
	err = sp.QueryRow(ctx, stmt, args...).Scan(&res.Rows, &res.Buckets, &res.Written)
	if err == nil {
		return sp.Commit(ctx)
	}
	_ = sp.Rollback(ctx)
	return d.explain(ctx, tx, err)
}

// explain answers the catalog's faults for a statement that failed on a
// class-42 SQLSTATE (the catalog changed since the worker started), and
// err itself otherwise.
func (d *declaration[In]) explain(ctx context.Context, tx pgx.Tx, err error) error {
	var pg *pgconn.PgError
	if !errors.As(err, &pg) || !strings.HasPrefix(pg.Code, "42") {
		return err
	}
	f, cerr := d.catalogFaults(ctx, tx)
	if cerr != nil {
		return errors.Join(err, cerr)
	}
	if len(f) == 0 {
		f = append(f, fmt.Sprintf("the statement failed (%s: %s)", errcode.ServerDetail(pg), planFault(pg.Code)))
	}
	return f.err(d.o.Name)
}

// statementIn answers the SQL source's statement for the target as the
// catalog has it: the dated one when the bucket column is a date.
func (d *declaration[In]) statementIn(ctx context.Context, tx pgx.Tx) (string, error) {
	if d.dated == "" {
		return d.stmt, nil
	}
	into, err := readRelation(ctx, tx, d.into)
	if err != nil {
		return "", err
	}
	return d.statementFor(into), nil
}

// statementFor answers the statement for the target into.
func (d *declaration[In]) statementFor(into *relation) string {
	if d.dated != "" && into.date[d.o.Bucket.Column] {
		return d.dated
	}
	return d.stmt
}
