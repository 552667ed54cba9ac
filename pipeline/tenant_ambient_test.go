package pipeline_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// Code acting for one tenant (pipeline.WithTenant) cannot queue another
// tenant's work: the enqueue is X_JOB_TENANT_MISMATCH before anything is
// queued, one at a time or many; CrossTenant, with a reason, is the one
// escape; a job that declares no tenant is never compared.
func TestTheAmbientTenantIsCheckedAtEnqueue(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	noop := func(context.Context, *pipeline.Run[keyed]) (int, error) { return 0, nil }
	j := pipeline.MustJob("tenancy.ambient", func(in keyed) string { return in.K }, noop,
		pipeline.JobOptions[keyed, int]{Tenant: func(in keyed) string { return in.Account }})
	asA := pipeline.WithTenant(ctx, "org-a")
	if got := pipeline.AmbientTenant(asA); got != "org-a" {
		t.Fatalf("AmbientTenant = %q", got)
	}
	if _, err := j.Enqueue(asA, pool, keyed{K: "1", Account: "org-b"}); !errors.Is(err, errcode.JobTenantMismatch) {
		t.Fatalf("org-b's input under org-a: %v", err)
	}
	if _, err := j.EnqueueMany(asA, pool, []keyed{{K: "2", Account: "org-a"}, {K: "3", Account: "org-b"}}); !errors.Is(err, errcode.JobTenantMismatch) {
		t.Fatalf("a batch holding org-b's input under org-a: %v", err)
	}
	if n := countJobs(t, pool, "tenancy.ambient"); n != 0 {
		t.Fatalf("refused enqueues queued %d rows", n)
	}
	if _, err := j.Enqueue(asA, pool, keyed{K: "4", Account: "org-a"}); err != nil {
		t.Fatalf("org-a's input under org-a: %v", err)
	}
	if _, err := pipeline.CrossTenant(asA, " "); !errors.Is(err, errcode.ConfigInvalid) {
		t.Fatalf("CrossTenant without a reason: %v", err)
	}
	cross, err := pipeline.CrossTenant(asA, "the nightly fan-out to every organisation")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.Enqueue(cross, pool, keyed{K: "5", Account: "org-b"}); err != nil {
		t.Fatalf("org-b's input under CrossTenant: %v", err)
	}
	if _, err := j.Enqueue(cross, pool, keyed{K: "6", Account: "org-b"}, pipeline.EnqueueOptions{Tenant: "org-a"}); !errors.Is(err, errcode.JobTenantMismatch) {
		t.Fatalf("an explicit tenant other than the input's under CrossTenant: %v", err)
	}
	untenanted := pipeline.MustJob("tenancy.none", func(in keyed) string { return in.K }, noop)
	if _, err := untenanted.Enqueue(asA, pool, keyed{K: "7", Account: "org-b"}); err != nil {
		t.Fatalf("a job without a tenant under org-a: %v", err)
	}
}

// A run's body acts for its row's tenant: a child it enqueues for its own
// tenant is queued, one for another tenant is refused.
func TestARunsBodyActsForItsTenant(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	child := pipeline.MustJob("tenancy.child", func(in keyed) string { return in.K },
		func(context.Context, *pipeline.Run[keyed]) (int, error) { return 0, nil },
		pipeline.JobOptions[keyed, int]{Tenant: func(in keyed) string { return in.Account }})
	results := make(chan error, 2)
	parent := pipeline.MustJob("tenancy.parent", func(in keyed) string { return in.K },
		func(ctx context.Context, run *pipeline.Run[keyed]) (int, error) {
			_, own := child.Enqueue(ctx, pool, keyed{K: "own-" + run.Input.K, Account: run.Input.Account})
			_, other := child.Enqueue(ctx, pool, keyed{K: "other-" + run.Input.K, Account: "org-z"})
			results <- own
			results <- other
			return 0, nil
		}, pipeline.JobOptions[keyed, int]{Tenant: func(in keyed) string { return in.Account }})
	if _, err := parent.Enqueue(ctx, pool, keyed{K: "p", Account: "org-a"}); err != nil {
		t.Fatal(err)
	}
	startWorker(t, pool, pipeline.WorkerConfig{}, parent)
	own, other := <-results, <-results
	if own != nil || !errors.Is(other, errcode.JobTenantMismatch) {
		t.Fatalf("the body's enqueues: own tenant %v, another tenant %v", own, other)
	}
	var tenants []string
	rows, err := pool.Query(ctx, `select tenant from pipe.jobs where name = 'tenancy.child'`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var s string
		_ = rows.Scan(&s)
		tenants = append(tenants, s)
	}
	if fmt.Sprint(tenants) != "[org-a]" {
		t.Fatalf("children queued for %v; want org-a's alone", tenants)
	}
}

// TenantRequired needs a Tenant to read: declared alone, it is a fault of
// the declaration.
func TestTenantRequiredWithoutATenantIsRefused(t *testing.T) {
	_, err := pipeline.NewJob("orgs.required", func(in struct{}) string { return "k" },
		func(context.Context, *pipeline.Run[struct{}]) (struct{}, error) { return struct{}{}, nil },
		pipeline.JobOptions[struct{}, struct{}]{TenantRequired: true})
	if errcode.CodeOf(err) != errcode.JobDeclarationInvalid || !strings.Contains(err.Error(), "TenantRequired") {
		t.Fatalf("TenantRequired without a Tenant: %v; want X_JOB_DECLARATION_INVALID naming it", err)
	}
}
