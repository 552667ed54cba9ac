package errcode_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pipekit/pipe/errcode"
)

// A standby's recovery conflict is a retryable X_REPLICA_CONFLICT naming
// hot_standby_feedback; anything else passes through unchanged.
func TestReplicaReadCodesARecoveryConflict(t *testing.T) {
	conflict := fmt.Errorf("read: %w", &pgconn.PgError{Code: "40001", Message: "canceling statement due to conflict with recovery"})
	err := errcode.ReplicaRead(conflict, "export t")
	e, ok := errcode.As(err)
	if !ok || e.Code != errcode.ReplicaConflict || !strings.Contains(e.Fix, "hot_standby_feedback") ||
		errcode.Classify(err) != errcode.Retryable || strings.Contains(err.Error(), "canceling") {
		t.Fatalf("coded %v (fix %q)", err, e.Fix)
	}
	if again := errcode.ReplicaRead(err, "again"); again != err {
		t.Errorf("coded twice: %v", again)
	}
	seen := errcode.Postgres(context.Background(), conflict, "read")
	if got := errcode.CodeOf(errcode.ReplicaRead(seen, "export t")); got != errcode.ReplicaConflict {
		t.Errorf("a conflict already coded as %s reads as %s", errcode.CodeOf(seen), got)
	}
	other := &pgconn.PgError{Code: "42P01"}
	coded := errcode.New(errcode.PostgresFailed, "x")
	for _, err := range []error{nil, other, coded, errors.New("plain")} {
		if got := errcode.ReplicaRead(err, "export t"); got != err {
			t.Errorf("ReplicaRead(%v) = %v, want it unchanged", err, got)
		}
	}
}
