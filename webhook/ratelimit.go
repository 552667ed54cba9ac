package webhook

import (
	"math"
	"net/http"
	"strconv"

	"golang.org/x/time/rate"

	"github.com/pipekit/pipe/errcode"
)

// RateLimit caps the requests a receiver's door takes, across every
// sender, in this process: a token bucket of Burst requests refilled at
// PerSecond. A request over it is answered 429 X_RATE_LIMITED with a
// Retry-After before its body is read, nothing queued, and its sender
// redelivers. Several processes behind a balancer each take their own.
type RateLimit struct {
	// PerSecond is the sustained rate. Required, positive.
	PerSecond float64
	// Burst is how many requests may come at once above it. Default
	// PerSecond rounded up, at least 1.
	Burst int
}

func (l *RateLimit) faults() []string {
	if l == nil {
		return nil
	}
	var f []string
	if !(l.PerSecond > 0) || math.IsInf(l.PerSecond, 0) {
		f = append(f, "RateLimit.PerSecond is not a positive number")
	}
	if l.Burst < 0 {
		f = append(f, "RateLimit.Burst is negative")
	}
	return f
}

// limiter answers the door's token bucket, or nil for none.
func (l *RateLimit) limiter() *rate.Limiter {
	if l == nil {
		return nil
	}
	burst := l.Burst
	if burst == 0 {
		burst = max(int(math.Ceil(l.PerSecond)), 1)
	}
	return rate.NewLimiter(rate.Limit(l.PerSecond), burst)
}

// admit answers whether lim takes one request now; when it does not, it
// answers the request 429 with the wait until it would.
func admit(lim *rate.Limiter, w http.ResponseWriter) bool {
	if lim == nil {
		return true
	}
	r := lim.Reserve()
	wait := r.Delay()
	if wait == 0 {
		return true
	}
	r.Cancel() // this request is refused: its token goes back
	secs := max(int(math.Ceil(wait.Seconds())), 1)
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	refuse(w, http.StatusTooManyRequests, errcode.New(errcode.RateLimited, "the webhook takes at most its rate limit of requests").
		WithRetryAfter(secs).WithFix("send it again after Retry-After seconds"))
	return false
}
