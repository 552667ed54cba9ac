package importrows

import (
	"context"

	"github.com/pipekit/pipe/pipeline"
)

// Check refuses, before any run of it exists, an input the stock import
// would refuse in its plan step: a table that does not exist or cannot be
// written, a key no unique index covers, a file that is not there, a header
// that does not match the table (only the first record is read), a report
// location that cannot be written. It runs the plan step's own code in a
// transaction it rolls back, so it refuses what the run would, with the
// same code. `pipe import` calls it before it enqueues, so that a mistake
// leaves no dead run behind.
func Check(ctx context.Context, db pipeline.DB, in FileImport) error {
	im, err := newImporter(FileImport.key, tableOptions())
	if err != nil {
		return err
	}
	return im.check(ctx, db, in)
}

// check plans in as its run's plan step would, without a run.
func (im *importer[In]) check(ctx context.Context, db pipeline.DB, in In) error {
	a, err := im.openSource(ctx, &pipeline.Run[In]{Input: in})
	if err != nil {
		return err
	}
	defer a.close()
	if im.o.Into == nil {
		_, err = a.makePlan(ctx, nil)
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
	return a.checkSink(ctx)
}
