package storebench

import (
	"math"
	"slices"
	"time"
)

// Latency is a sample's distribution, in milliseconds.
type Latency struct {
	Samples int     `json:"samples"`
	P50Ms   float64 `json:"p50Ms"`
	P99Ms   float64 `json:"p99Ms"`
	MaxMs   float64 `json:"maxMs"`
}

// latency answers ds' median, 99th percentile (nearest rank) and maximum.
func latency(ds []time.Duration) Latency {
	if len(ds) == 0 {
		return Latency{}
	}
	s := slices.Sorted(slices.Values(ds))
	return Latency{Samples: len(s), P50Ms: ms(rank(s, 0.5)), P99Ms: ms(rank(s, 0.99)), MaxMs: ms(s[len(s)-1])}
}

// rank answers the nearest-rank p-th quantile of the sorted s.
func rank(s []time.Duration, p float64) time.Duration {
	i := int(math.Ceil(p*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func perSecond(n int, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}
