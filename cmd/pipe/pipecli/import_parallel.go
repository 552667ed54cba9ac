package pipecli

import (
	"encoding/json"

	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/importrows"
	"github.com/pipekit/pipe/pipeline"
)

// runParallelImport is `pipe import --wait --parallel N`: the input checked
// as any import's, then the run worked in this process with its range job,
// N ranges at a time beside the parent.
func (a *app) runParallelImport(c *cobra.Command, in importrows.FileImport) (importrows.Result, error) {
	var out importrows.Result
	ctx := c.Context()
	pool, err := a.connect(ctx, migrated)
	if err != nil {
		return out, err
	}
	defer pool.Close()
	if err := importrows.Check(ctx, pool, in); err != nil {
		return out, err
	}
	jobs := importrows.TableJobs()
	res, err := jobs.Import.Enqueue(ctx, pool, in)
	if err != nil {
		return out, err
	}
	bar := newProgressBar(a.stderr)
	rep := newWaitReporter(a, pipeline.NewAdmin(pool), bar, in.Limits.Parallel+1)
	rep.enqueued(jobs.Import.Name(), jobs.Import.Queue(), res)
	d, err := a.workJobsInProcess(ctx, pool, jobs.All(), jobs.Import.Queue(), in.Limits.Parallel+1, res.ID, rep.watch)
	bar.done()
	if err != nil {
		return out, err
	}
	if err := runError(d); err != nil {
		return out, err
	}
	if err := json.Unmarshal(d.Result, &out); err != nil {
		return out, err
	}
	return out, a.emit(out, importLine(res.ID, out))
}
