package pipeline

import (
	"context"
	"math"
	"sync"
	"time"

	"github.com/pipekit/pipe/errcode"
)

// RateLimit is at most Starts body starts per Window.
type RateLimit struct {
	Starts int
	Window time.Duration
}

// tenantRates is the worker's per-process, per-tenant start limiter: fixed
// windows per tenant. A nil limiter allows everything.
type tenantRates struct {
	limit RateLimit
	mu    sync.Mutex
	seen  map[string]*rateWindow
}

type rateWindow struct {
	start time.Time
	n     int
}

func newTenantRates(l *RateLimit) *tenantRates {
	if l == nil {
		return nil
	}
	return &tenantRates{limit: *l, seen: map[string]*rateWindow{}}
}

// allow spends one start of tenant's window, or answers how long until the
// window rolls over.
func (r *tenantRates) allow(tenant string, now time.Time) (time.Duration, bool) {
	if r == nil {
		return 0, true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	w := r.seen[tenant]
	if w == nil || now.Sub(w.start) >= r.limit.Window {
		w = &rateWindow{start: now}
		r.seen[tenant] = w
	}
	if w.n >= r.limit.Starts {
		return w.start.Add(r.limit.Window).Sub(now), false
	}
	w.n++
	return 0, true
}

// SpendBudget spends one unit of a fleet-wide budget — at most limit spends
// per window, shared by every worker through one row in Postgres. Over it,
// the answer is X_RATE_LIMITED with the seconds until the window rolls over;
// a body returning it is deferred to then with its attempt uncounted. Call it
// as a body's first line, before the first step, so a refusal replays
// nothing that ran.
func SpendBudget(ctx context.Context, db DB, bucket string, limit int, window time.Duration) error {
	if limit < 1 || window <= 0 || bucket == "" {
		return errcode.New(errcode.ConfigInvalid, "budget: needs a bucket, a limit of 1 or more and a positive window").
			WithFix("declare the budget's bucket, limit and window")
	}
	var spent bool
	var wait float64
	err := db.QueryRow(ctx, sqlSpendBudget, bucket, limit, window).Scan(&spent, &wait)
	if err != nil {
		return errcode.Postgres(ctx, err, "budget "+bucket)
	}
	if spent {
		return nil
	}
	return errcode.New(errcode.RateLimited, "the shared budget %s is spent for this window", bucket).
		WithRetryAfter(int(math.Ceil(wait))).
		WithFix("none: the run is deferred to the next window with its attempt uncounted")
}
