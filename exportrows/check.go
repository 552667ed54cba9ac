package exportrows

import (
	"context"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/pipeline"
)

// Check refuses, before any run of it exists, an input the stock export
// would refuse in its plan step: a table or view that does not exist, a
// column or key it lacks, a Where filter that does not read (a typo names
// the column), a destination directory that cannot be written. It runs the
// plan step's own code in a transaction it rolls back, so it refuses what
// the run would, with the same code. `pipe export` calls it before it
// enqueues, so that a mistake leaves no dead run behind.
func Check(ctx context.Context, db pipeline.DB, in TableExport) error {
	ex, err := newExporter(TableExport.key, tableOptions())
	if err != nil {
		return err
	}
	return ex.check(ctx, db, in)
}

// check plans in as its run's plan step would, without a run.
func (ex *exporter[In]) check(ctx context.Context, db pipeline.DB, in In) error {
	a, err := ex.prepare(&pipeline.Run[In]{Input: in, RunID: "check"})
	if err != nil {
		return err
	}
	tx, err := db.Begin(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	if _, err := a.planTx(ctx, tx); err != nil {
		return err
	}
	b, err := blob.Open(ctx, a.sink.Bucket)
	if err != nil {
		return err
	}
	defer b.Close()
	return b.CheckWritable(a.dir)
}
