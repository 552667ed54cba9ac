package pipeline

import (
	"math"
	"math/rand/v2"
	"time"
)

// Backoff is how the delay between attempts grows.
type Backoff string

const (
	// Exponential doubles the delay each attempt: Delay, 2·Delay, 4·Delay…
	Exponential Backoff = "exponential"
	// Linear grows the delay by Delay each attempt: Delay, 2·Delay, 3·Delay…
	Linear Backoff = "linear"
	// Fixed waits Delay every time.
	Fixed Backoff = "fixed"
)

// Retry is a job's retry policy. A zero field takes the default named in its
// comment; a declared Attempts below 1 or a negative duration is refused.
type Retry struct {
	// Attempts is how many times the body may run before the run is settled
	// for good. Default 3; 0 is refused when Retry is declared.
	Attempts int
	// Backoff is exponential (default), linear or fixed.
	Backoff Backoff
	// Delay is the base delay. Default 1s.
	Delay time.Duration
	// MaxDelay clamps every delay, a retry-after one included. Default 1h.
	MaxDelay time.Duration
	// NoJitter turns off equal jitter (half the delay fixed, half rolled),
	// which is on by default.
	NoJitter bool
	// NoDeadLetter settles an exhausted run "failed" instead of "dead".
	NoDeadLetter bool
}

// DefaultRetry answers the policy of a job that declares none: 3 attempts,
// exponential from 1s, at most 1h apart, with jitter, dead-lettered.
func DefaultRetry() Retry {
	return Retry{Attempts: 3, Backoff: Exponential, Delay: defaultRetryDelay, MaxDelay: defaultRetryMaxDelay}
}

// The defaults of Retry's durations.
const (
	defaultRetryDelay    = time.Second
	defaultRetryMaxDelay = time.Hour
)

func (r Retry) withDefaults() Retry {
	if r.Backoff == "" {
		r.Backoff = Exponential
	}
	if r.Delay == 0 {
		r.Delay = defaultRetryDelay
	}
	if r.MaxDelay == 0 {
		r.MaxDelay = defaultRetryMaxDelay
	}
	return r
}

func (r Retry) faults() []string {
	var out []string
	if r.Attempts < 1 {
		out = append(out, "Retry.Attempts must be 1 or more")
	}
	switch r.Backoff {
	case "", Exponential, Linear, Fixed:
	default:
		out = append(out, "Retry.Backoff must be exponential, linear or fixed")
	}
	if r.Delay < 0 {
		out = append(out, "Retry.Delay is negative")
	}
	if r.MaxDelay < 0 {
		out = append(out, "Retry.MaxDelay is negative")
	}
	return out
}

// DelayFor answers the wait before the attempt after failed attempt n
// (1-based), with jitter rolled by roll (a value in [0,1)).
func (r Retry) DelayFor(n int, roll float64) time.Duration {
	base := r.baseDelay(n)
	if r.NoJitter {
		return base
	}
	half := base / 2
	return half + time.Duration(float64(base-half)*roll)
}

func (r Retry) baseDelay(n int) time.Duration {
	if n < 1 {
		n = 1
	}
	d := float64(r.Delay)
	switch r.Backoff {
	case Linear:
		d *= float64(n)
	case Fixed:
	default:
		d *= math.Pow(2, float64(n-1))
	}
	if d > float64(r.MaxDelay) || math.IsInf(d, 0) {
		return r.MaxDelay
	}
	return time.Duration(d)
}

// clampRetryAfter applies MaxDelay to a responder's retry-after.
func (r Retry) clampRetryAfter(d time.Duration) time.Duration {
	return min(max(d, 0), r.MaxDelay)
}

func jitterRoll() float64 { return rand.Float64() }
