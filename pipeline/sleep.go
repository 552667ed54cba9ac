package pipeline

import (
	"context"
	"encoding/json"
	"time"

	"github.com/pipekit/pipe/errcode"
)

// Sleep parks the run for d under the step name: it persists a wake time,
// and the body must return the error Sleep answers, which releases the
// worker — no held connection, no timer in memory. The run resumes in
// whatever process claims it after the wake time; there Sleep answers nil.
// A suspension is control flow: it spends no attempt. 72h is safe.
func Sleep(ctx context.Context, name string, d time.Duration) error {
	rs, err := beginStep(ctx, name)
	if err != nil {
		return err
	}
	if d < 0 {
		return errcode.New(errcode.DurationInvalid, "step %s: the sleep is negative", name).WithFix("sleep for zero or more")
	}
	now := rs.claimNow()
	if raw, ok := rs.stored(name); ok {
		var s struct {
			WakeAt time.Time `json:"wakeAt"`
		}
		if err := json.Unmarshal(raw, &s); err != nil || !now.Before(s.WakeAt) {
			return nil
		}
		return rs.suspendUntil(ctx, name, evSuspended, s.WakeAt, nil, nil)
	}
	wake := now.Add(d)
	data, _ := json.Marshal(map[string]time.Time{"wakeAt": wake})
	return rs.suspendUntil(ctx, name, evSlept, wake, data, nil)
}

// claimNow is the database clock at this attempt's claim.
func (rs *runState) claimNow() time.Time {
	if rs.row.now != nil {
		return *rs.row.now
	}
	return time.Now()
}

func (rs *runState) suspendUntil(ctx context.Context, step, kind string, until time.Time, data json.RawMessage, wait *waitRow) error {
	if cause := context.Cause(ctx); cause != nil {
		return abortedErr(rs.spec.name, step, cause)
	}
	return &suspension{step: step, kind: kind, until: until, data: data, wait: wait}
}
