package pipeline

import (
	"context"
	"strings"

	"github.com/pipekit/pipe/errcode"
)

// ambientKey and crossKey are the context keys of WithTenant and
// CrossTenant.
type (
	ambientKey struct{}
	crossKey   struct{}
)

// WithTenant answers ctx carrying tenant as its ambient tenant: the tenant
// the code running under it acts for (a request's organisation, set by the
// app's middleware). An enqueue under it of a job that declares its
// tenant (JobOptions.Tenant) is refused with X_JOB_TENANT_MISMATCH before
// anything is queued when the input names another tenant. A run's body
// runs under its own row's tenant, so a job working for one tenant cannot
// queue another's work by mistake. An empty tenant is no tenant: nothing is
// compared. The one escape is [CrossTenant].
func WithTenant(ctx context.Context, tenant string) context.Context {
	return context.WithValue(ctx, ambientKey{}, tenant)
}

// AmbientTenant answers ctx's ambient tenant ("" for none).
func AmbientTenant(ctx context.Context) string {
	t, _ := ctx.Value(ambientKey{}).(string)
	return t
}

// CrossTenant answers ctx admitting enqueues for any tenant under its
// ambient one — for the code whose work is to act across tenants (an
// operator's tool, a fan-out over every organisation). why says what it is
// for and is required: an empty why is X_CONFIG_INVALID. An explicit
// EnqueueOptions.Tenant that differs from the input's is refused all the
// same.
func CrossTenant(ctx context.Context, why string) (context.Context, error) {
	if strings.TrimSpace(why) == "" {
		return ctx, errcode.New(errcode.ConfigInvalid, "pipeline: CrossTenant needs a reason").
			WithFix("say why this code acts across tenants, such as CrossTenant(ctx, \"nightly fan-out to every organisation\")")
	}
	return context.WithValue(ctx, crossKey{}, why), nil
}

// checkAmbient refuses an input whose declared tenant is not ctx's ambient
// one, unless ctx is CrossTenant.
func (j *Job[In, Out]) checkAmbient(ctx context.Context, declared string) error {
	amb := AmbientTenant(ctx)
	if amb == "" || declared == "" || amb == declared {
		return nil
	}
	if why, _ := ctx.Value(crossKey{}).(string); why != "" {
		return nil
	}
	return errcode.New(errcode.JobTenantMismatch, "job %s: the input's tenant is not the tenant the code enqueueing it acts for", j.spec.name).
		WithFix("enqueue the input from code acting for its tenant (pipeline.WithTenant), or, for code whose work is to act across tenants, under pipeline.CrossTenant(ctx, why)")
}

// tenantMissing refuses an input that names no tenant for a job that
// requires one (JobOptions.TenantRequired).
func tenantMissing(name string) error {
	return errcode.New(errcode.JobTenantMismatch, "job %s: the input names no tenant, and the job requires one", name).
		WithFix("name the tenant in the input (the job's Tenant reads it)")
}
