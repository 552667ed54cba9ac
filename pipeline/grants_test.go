package pipeline_test

import (
	"context"
	"strings"
	"testing"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// A role holding what Grants gives passes CheckGrants; one right taken
// away is named, with a fix that names `pipe grants` for the role.
func TestCheckGrantsNamesTheRightARoleLacks(t *testing.T) {
	t.Setenv(fixtures.RoleEnv, "pipe_checkgrants_least")
	ctx := context.Background()
	pool := fixtures.DB(t)
	if err := pipeline.CheckGrants(ctx, pool); err != nil {
		t.Fatalf("a role granted what Grants gives: %v", err)
	}
	if _, err := fixtures.Owner(t, pool).Exec(ctx, `revoke delete on pipe.outbox from pipe_checkgrants_least`); err != nil {
		t.Fatal(err)
	}
	err := pipeline.CheckGrants(ctx, pool)
	e, ok := errcode.As(err)
	if !ok || e.Code != errcode.PostgresPermission || !strings.Contains(e.Message, "DELETE on table pipe.outbox") ||
		!strings.Contains(e.Fix, "pipe grants --role pipe_checkgrants_least") {
		t.Fatalf("CheckGrants answered %v; want X_POSTGRES_PERMISSION naming DELETE on pipe.outbox, its fix pipe grants", err)
	}
}
