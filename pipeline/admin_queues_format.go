package pipeline

import (
	"strconv"
	"strings"
)

// FormatEstimate writes an estimated count (see Estimates) as the CLI and
// the console show one: a leading "~" and at most two significant digits
// with a unit past a thousand (~950, ~1.2k, ~12k, ~1.2M), so that it reads
// as the approximation it is.
func FormatEstimate(n int64) string {
	if n < 1000 {
		return "~" + strconv.FormatInt(n, 10)
	}
	v := float64(n)
	for _, unit := range []string{"k", "M", "B"} {
		v /= 1000
		prec := 0
		if v < 9.95 {
			prec = 1
		}
		s := strconv.FormatFloat(v, 'f', prec, 64)
		if f, _ := strconv.ParseFloat(s, 64); f < 1000 || unit == "B" {
			return "~" + strings.TrimSuffix(s, ".0") + unit
		}
	}
	panic("unreachable")
}
