package outbox

import (
	"context"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// PruneInput is the input of a relay's prune job.
type PruneInput struct{}

// PruneResult is what a prune run answers.
type PruneResult struct {
	// Pruned is how many published rows the run deleted.
	Pruned int64 `json:"pruned"`
}

// pruneCron is when the prune task fires: hourly, off the hour's top.
const pruneCron = "23 * * * *"

// declarePrune declares the relay's retention: the job <Name>.prune, which
// deletes the rows published more than Retain ago, and the hourly task
// that enqueues it.
func (r *Relay) declarePrune() error {
	var err error
	opts := pipeline.JobOptions[PruneInput, PruneResult]{Queue: "default"}
	r.prune, err = pipeline.NewJob(r.o.Name+".prune", func(PruneInput) string { return "prune" }, r.pruneBody, opts)
	if err != nil {
		return err
	}
	entry := pipeline.Entry(r.prune, func(pipeline.Occurrence) PruneInput { return PruneInput{} })
	r.pruneTask, err = pipeline.NewTask(r.o.Name+".prune", pruneCron, "UTC", []pipeline.TaskEntry{entry})
	return err
}

func (r *Relay) pruneBody(ctx context.Context, _ *pipeline.Run[PruneInput]) (PruneResult, error) {
	pool := pipeline.Pool(ctx)
	if pool == nil {
		return PruneResult{}, errcode.New(errcode.Invariant, "outbox relay %s: prune outside a run", r.o.Name)
	}
	n, err := Prune(ctx, pool, r.o.Retain)
	return PruneResult{Pruned: n}, err
}
