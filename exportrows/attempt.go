package exportrows

import (
	"context"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// attempt is one attempt of one run: the input's source and sink, the
// bucket it opened, the plan and what every page reuses.
type attempt[In any] struct {
	ex     *exporter[In]
	run    *pipeline.Run[In]
	src    Source
	sink   Sink
	set    Settings // as the input asks; the plan keeps the run's
	dir    string   // <prefix>/<runId>
	bucket *blob.Bucket
	plan   plan
	cols   []column // the plan's columns, exported then hidden
	sql    pageSQL
	keys   keyKeeper
	pq     *parquetEncoder // made by the first Parquet page
	snap   *snapshotRead   // a snapshot export's read, from its first page
	rng    *Range          // a parallel export's child's range; nil otherwise
	ranges int             // a parallel export's parent: its ranges
}

// open checks the input and opens the sink's bucket. A hostile prefix or a
// malformed source is refused here, before anything is read or written.
func (ex *exporter[In]) open(ctx context.Context, r *pipeline.Run[In]) (*attempt[In], error) {
	a, err := ex.prepare(r)
	if err != nil {
		return nil, err
	}
	if a.bucket, err = blob.Open(ctx, a.sink.Bucket); err != nil {
		return nil, err
	}
	if err := a.sweep(ctx); err != nil {
		a.close()
		return nil, err
	}
	return a, nil
}

// prepare checks the input and settles what the plan needs, opening
// nothing: all that [Check] and the run share before the plan.
func (ex *exporter[In]) prepare(r *pipeline.Run[In]) (*attempt[In], error) {
	if ex.o.Check != nil {
		if err := ex.o.Check(r.Input); err != nil {
			return nil, err
		}
	}
	a := &attempt[In]{ex: ex, run: r, src: ex.o.Source(r.Input), sink: ex.o.Sink(r.Input), rng: ex.rangeOf(r.Input)}
	var err error
	if a.set, err = ex.runSettings(r.Input); err != nil {
		return nil, err
	}
	if err := checkSource(a.src); err != nil {
		return nil, err
	}
	if a.dir, err = runDirKey(a.sink.Prefix, r.RunID); err != nil {
		return nil, err
	}
	if a.rng != nil {
		a.dir = a.rng.Dir // the parent's directory
		if err := blob.ValidateKey(a.dir); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// sweep removes the temporary files a killed attempt's writes left in the
// run's directory (a file bucket writes part-00007.csv.<hex>.tmp beside
// the part and renames it): a resumed run leaves only its parts and its
// manifest there.
func (a *attempt[In]) sweep(ctx context.Context) error {
	_, err := a.bucket.SweepTemporary(ctx, a.dir+"/"+a.sweepPrefix())
	return err
}

func (a *attempt[In]) close() {
	if a.bucket != nil {
		_ = a.bucket.Close()
	}
	if a.pq != nil {
		a.pq.spill.close()
	}
	a.snap.close()
}

// runSettings answers the declared settings with the input's overrides.
func (ex *exporter[In]) runSettings(in In) (Settings, error) {
	s := ex.o.settings()
	if ex.o.SettingsOf != nil {
		run := ex.o.SettingsOf(in)
		if faults := run.faults(); len(faults) > 0 {
			return s, errcode.New(errcode.JobInputInvalid, "export: %s", strings.Join(faults, "; ")).
				WithFix(settingsFix)
		}
		s = s.over(run)
	}
	return s.defaulted(), nil
}

// runDirKey joins the prefix and the run's directory, refusing a prefix
// that is absolute, climbs, or has an empty segment.
func runDirKey(prefix, dir string) (string, error) {
	if prefix != "" {
		if err := blob.ValidateKey(strings.TrimSuffix(prefix, "/")); err != nil {
			return "", err
		}
	}
	return blob.JoinKey(prefix, dir)
}

// planStep settles the plan once per run, in a step whose transaction reads
// the catalog; every attempt then prepares its columns and statements from
// the stored plan.
func (a *attempt[In]) planStep(ctx context.Context) error {
	p, err := pipeline.StepTx(ctx, "plan", a.planTx)
	if err != nil {
		return err
	}
	a.plan = p
	a.cols = columnsOf(p)
	a.sql = newPageSQL(a.src, p, a.cols, a.rng)
	a.keys = newKeyKeeper(a.cols, p)
	return nil
}

// planTx is the plan step, and all of [Check].
func (a *attempt[In]) planTx(ctx context.Context, tx pgx.Tx) (plan, error) {
	p, err := a.makePlan(ctx, tx)
	return p, sourceErr(ctx, err, a.src.label())
}

// pageStep reads and writes one page in its step: the rows are read in
// the step's transaction, the object written, and the checkpoint commits
// with it. A page run again rewrites its own object. A failure is coded
// before the job core stores it: a server's message can quote a row.
func (a *attempt[In]) pageStep(ctx context.Context, page int, cur cursor) (cursor, error) {
	if a.plan.Snapshot || a.rng != nil {
		// Held before the step: a step waiting for a held connection would
		// hold its own transaction's connection meanwhile.
		if _, err := a.snapshot(ctx); err != nil {
			return cur, err
		}
	}
	return pipeline.StepTx(ctx, pageName(page), func(ctx context.Context, tx pgx.Tx) (cursor, error) {
		next, err := a.page(ctx, tx, page, cur)
		if a.ex.o.Replica != nil {
			err = errcode.ReplicaRead(err, "export "+a.src.label()+" "+pageName(page))
		}
		if err != nil && a.snap.lost() {
			// the snapshot's connection went away: PostgreSQL did, or cut it
			return next, errcode.Postgres(ctx, err, "export "+a.src.label()+" "+pageName(page)+": the snapshot's connection")
		}
		return next, sourceErr(ctx, err, a.src.label()+" "+pageName(page))
	})
}
