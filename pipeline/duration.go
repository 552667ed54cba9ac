package pipeline

import (
	"math"
	"strconv"
	"time"

	"github.com/pipekit/pipe/errcode"
)

// durationUnits are the units ParseDuration takes, longest first where one is
// a prefix of another.
var durationUnits = []struct {
	name string
	d    time.Duration
}{
	{"ms", time.Millisecond}, {"s", time.Second}, {"m", time.Minute},
	{"h", time.Hour}, {"d", 24 * time.Hour}, {"w", 7 * 24 * time.Hour},
}

// ParseDuration reads a duration the way the specification writes them:
// one or more whole numbers each followed by a unit — ms, s, m, h, d (24 h)
// or w (7 d) — such as "3d", "72h", "1h30m" or "500ms". A sign, a fraction,
// an unknown unit, an empty string or an overflow is X_DURATION_INVALID.
func ParseDuration(s string) (time.Duration, error) {
	if s == "" {
		return 0, durationErr("it is empty")
	}
	var total time.Duration
	for len(s) > 0 {
		n, rest, err := leadingNumber(s)
		if err != nil {
			return 0, err
		}
		unit, rest, err := leadingUnit(rest)
		if err != nil {
			return 0, err
		}
		if n > math.MaxInt64/int64(unit) || total > time.Duration(math.MaxInt64-n*int64(unit)) {
			return 0, durationErr("it overflows")
		}
		total += time.Duration(n * int64(unit))
		s = rest
	}
	return total, nil
}

func leadingNumber(s string) (int64, string, error) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, "", durationErr("each part must start with a whole number")
	}
	n, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil {
		return 0, "", durationErr("a number is too large")
	}
	return n, s[i:], nil
}

func leadingUnit(s string) (time.Duration, string, error) {
	for _, u := range durationUnits {
		if len(s) >= len(u.name) && s[:len(u.name)] == u.name {
			return u.d, s[len(u.name):], nil
		}
	}
	return 0, "", durationErr("a unit is missing or unknown (use ms, s, m, h, d or w)")
}

func durationErr(why string) error {
	return errcode.New(errcode.DurationInvalid, "the duration is not valid: %s", why).
		WithFix(`write whole numbers with units, such as "500ms", "90s", "1h30m" or "3d"`)
}
