package pipeline_test

import (
	"context"
	"errors"
	"testing"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// verifiedJob declares a job whose Verify asks the catalog for table.
func verifiedJob(name, table string) *pipeline.Job[noInput, int] {
	return pipeline.MustJob(name, keyK, func(context.Context, *pipeline.Run[noInput]) (int, error) { return 0, nil },
		pipeline.JobOptions[noInput, int]{Verify: func(ctx context.Context, db pipeline.DB) error {
			var found bool
			if err := db.QueryRow(ctx, `select to_regclass($1) is not null`, table).Scan(&found); err != nil {
				return err
			}
			if !found {
				return errcode.New(errcode.JobDeclarationInvalid, "job %s: its table is missing", name)
			}
			return nil
		}})
}

// A worker whose registry holds a job that fails its Verify does not start,
// and says which; Registry.Verify answers every failure; once the catalog
// holds, the same worker starts.
func TestAWorkerRefusesToStartWhenAJobFailsVerify(t *testing.T) {
	pool := fixtures.DB(t)
	ctx := context.Background()
	reg, err := pipeline.NewRegistry(verifiedJob("needs.a", "a"), verifiedJob("needs.b", "b"), verifiedJob("plain", "pipe.jobs"))
	if err != nil {
		t.Fatal(err)
	}
	err = reg.Verify(ctx, pool)
	var joined interface{ Unwrap() []error }
	if !errors.As(err, &joined) || len(joined.Unwrap()) != 2 || !errors.Is(err, errcode.JobDeclarationInvalid) {
		t.Fatalf("Verify answered %v; want the two missing tables", err)
	}
	w, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(ctx); !errors.Is(err, errcode.JobDeclarationInvalid) {
		t.Fatalf("Start answered %v; want the refusal", err)
	}
	if _, err := pool.Exec(ctx, `create table a (); create table b ()`); err != nil {
		t.Fatal(err)
	}
	if err := w.Start(ctx); err != nil {
		t.Fatalf("Start after the tables exist: %v", err)
	}
	_ = w.Shutdown(ctx)
}
