package pipeline

import (
	"context"
	"errors"
)

// verify runs the job's declared Verify, if any.
func (j *Job[In, Out]) verify(ctx context.Context, db DB) error {
	if j.opts.Verify == nil {
		return nil
	}
	return j.opts.Verify(ctx, db)
}

// Verify checks every registered job that declares a Verify against the
// database db reaches, in name order, and answers every failure joined (nil
// when all pass). Each failure is the job's own coded error.
func (r *Registry) Verify(ctx context.Context, db DB) error {
	var errs []error
	for _, name := range r.Names() {
		if err := r.jobs[name].verify(ctx, db); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
