package pipeline

import (
	"context"
	"slices"

	"github.com/pipekit/pipe/errcode"
)

// MaxBulkRows is the most rows one bulk call moves.
const MaxBulkRows = 1_000

// BulkFilter selects the rows a bulk call moves. State is required.
type BulkFilter struct {
	State               State
	Queue, Name, Tenant string
}

// BulkResult is what a bulk call moved and how many matching rows are left
// that it could move: call again until Remaining is zero.
type BulkResult struct {
	Affected  int64 `json:"affected"`
	Remaining int64 `json:"remaining"`
}

// RemoveMany deletes up to 1,000 rows in State (never running) and their
// journals.
func (a *Admin) RemoveMany(ctx context.Context, f BulkFilter) (BulkResult, error) {
	if f.State == StateRunning {
		return BulkResult{}, errcode.New(errcode.JobNotRemovable, "running jobs cannot be removed").WithFix("cancel them first")
	}
	return a.bulk(ctx, "remove", sqlRemoveMany, f)
}

// RequeueMany puts up to 1,000 finished rows back to ready. A row whose key a
// live run holds stays where it is and is not counted in Remaining.
func (a *Admin) RequeueMany(ctx context.Context, f BulkFilter) (BulkResult, error) {
	if f.State.Live() {
		return BulkResult{}, errcode.New(errcode.JobNotRequeueable, "only finished jobs can be requeued").
			WithFix("pick done, failed, dead or cancelled")
	}
	return a.bulk(ctx, "requeue", sqlRequeueMany, f)
}

// PromoteMany runs up to 1,000 rows waiting on their run time now.
func (a *Admin) PromoteMany(ctx context.Context, f BulkFilter) (BulkResult, error) {
	if !slices.Contains(PromotableStates(), f.State) {
		return BulkResult{}, errcode.New(errcode.JobNotPromotable, "only delayed or ready rows wait on a run time").
			WithFix("pick delayed or ready")
	}
	return a.bulk(ctx, "promote", sqlPromoteMany, f)
}

func (a *Admin) bulk(ctx context.Context, what, sql string, f BulkFilter) (BulkResult, error) {
	if !f.State.Valid() {
		return BulkResult{}, pageInvalid("a bulk call needs one of the states "+stateNames(), "pass one of those states")
	}
	var r BulkResult
	var woken int64 // the queues a requeue or promote woke; a remove wakes none
	err := a.db.QueryRow(ctx, sql, f.State, f.Queue, f.Name, f.Tenant, MaxBulkRows).Scan(&r.Affected, &r.Remaining, &woken)
	return r, adminErr(what, err)
}
