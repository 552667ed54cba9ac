package pipeline

import (
	"context"
	"encoding/json"

	"github.com/pipekit/pipe/errcode"
)

// execute decodes a claimed row's input, runs the body and encodes its result.
func (j *Job[In, Out]) execute(ctx context.Context, row *claimed) ([]byte, error) {
	in, err := j.decode(row.input)
	if err != nil {
		return nil, err
	}
	if j.opts.TenantRequired && j.opts.Tenant(in) == "" {
		return nil, tenantMissing(j.spec.name)
	}
	if j.opts.Tenant != nil && j.opts.Tenant(in) != row.tenant {
		return nil, errcode.New(errcode.JobTenantMismatch, "job %s: the queued row's tenant is not the input's", j.spec.name).
			WithFix("re-enqueue the input as its own tenant")
	}
	// The body acts for its row's tenant: what it enqueues for another is
	// refused (see WithTenant).
	if row.tenant != "" {
		ctx = WithTenant(ctx, row.tenant)
	}
	out, err := j.body(ctx, newRun(row, &j.spec, in))
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(out)
	if err != nil {
		return nil, errcode.Wrap(err, errcode.StepOutputUnserializable, "job %s: the result does not encode as JSON", j.spec.name).
			WithFix("return a JSON-encodable result")
	}
	return raw, nil
}
