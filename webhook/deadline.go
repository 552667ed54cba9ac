package webhook

import (
	"context"
	"time"
)

// requestMargin is how much of the job's Timeout an attempt keeps after its
// request's deadline: a quarter of it, at most a second. A request the
// endpoint does not answer in time then fails as the delivery's own
// X_WEBHOOK_DELIVERY_FAILED, recorded in the ledger, before the worker's
// X_JOB_TIMEOUT would end the attempt.
func requestMargin(timeout time.Duration) time.Duration {
	return min(timeout/4, time.Second)
}

// attemptDeadline bounds an attempt's endpoint read and request by the
// job's Timeout less its margin, counted from the attempt's start. A job
// without a Timeout is bounded per request (DefaultTimeout, in send).
func (d *deliverer[In]) attemptDeadline(ctx context.Context) (context.Context, context.CancelFunc) {
	t := d.o.Job.Timeout
	if t <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, t-requestMargin(t))
}
