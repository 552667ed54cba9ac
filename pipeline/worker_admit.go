package pipeline

import (
	"context"
	"encoding/json"
	"time"

	"github.com/pipekit/pipe/errcode"
)

// admit decides whether a claimed run may start its body: its tenant has
// room in this process, it holds a concurrency slot (or its own earlier
// one) and its tenant is within the per-process start rate. A run not
// admitted is deferred uncounted, or refused under WhenBusy Fail; admit
// answers false and the run is settled.
func (w *Worker) admit(row *claimed, spec *jobSpec) bool {
	if !w.enterTenant(row) {
		data, _ := json.Marshal(map[string]any{"maxInFlightPerTenant": w.cfg.MaxInFlightPerTenant})
		w.deferCounted(row, w.cfg.BusyDelay, evDeferredBusy, data)
		return false
	}
	if spec.limit > 0 && !w.takeSlot(row, spec) {
		return false
	}
	if wait, ok := w.rates.allow(row.tenant, time.Now()); !ok {
		data, _ := json.Marshal(map[string]any{"code": errcode.RateLimited, "retryAfterMs": wait.Milliseconds()})
		w.deferCounted(row, wait, evDeferredRate, data)
		return false
	}
	return true
}

// deferCounted defers a run its admission held back, its attempt
// uncounted, and counts it deferred once the deferral landed.
func (w *Worker) deferCounted(row *claimed, wait time.Duration, ev string, data []byte) {
	if w.deferRun(row, wait, ev, data) {
		w.stats.Deferred.Add(1)
		w.outcome(row.queue, "deferred")
	}
}

func (w *Worker) takeSlot(row *claimed, spec *jobSpec) bool {
	key := ""
	if row.concurrencyKey != nil {
		key = *row.concurrencyKey
	}
	ctx, cancel := context.WithTimeout(context.Background(), flushTimeout)
	defer cancel()
	ok, err := w.store.acquireSlot(ctx, row, spec.leaseKey(key), spec.limit, w.cfg.Lease)
	switch {
	case err != nil:
		w.log.warn("jobs.slot.failed", "job", row.name, "id", row.id.String(), "error", safeErr(err))
		w.deferRun(row, w.cfg.BusyDelay, evDeferredBusy, nil)
	case !ok && spec.whenBusy == Fail:
		w.refuseBusy(row, spec)
	case !ok:
		w.deferCounted(row, w.cfg.BusyDelay, evDeferredBusy, nil)
	}
	return ok && err == nil
}

// refuseBusy settles a run failed with X_JOB_KEY_BUSY: its body never ran,
// nothing retries it, and it is not a dead letter.
func (w *Worker) refuseBusy(row *claimed, spec *jobSpec) {
	err := errcode.New(errcode.JobKeyBusy, "job %s: another run holds the concurrency key", spec.name).
		WithFix("`pipe jobs retry ID` once the other run settles")
	ok := w.persist(row, evRefused, func(ctx context.Context) (bool, error) {
		return w.store.fail(ctx, row, "failed", 0, errorJSON(err), evRefused)
	})
	if ok {
		w.stats.Failed.Add(1)
		w.outcome(row.queue, "failed")
		w.notifySettled(OutcomeRefused, row, nil, errorJSON(err))
	}
}

// enterTenant counts row among its tenant's runs in this process, unless
// they are at MaxInFlightPerTenant already; release uncounts it.
func (w *Worker) enterTenant(row *claimed) bool {
	if w.cfg.MaxInFlightPerTenant == 0 || row.tenant == "" {
		return true
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.tenants[row.tenant] >= w.cfg.MaxInFlightPerTenant {
		return false
	}
	w.tenants[row.tenant]++
	row.tenantHeld = true
	return true
}
