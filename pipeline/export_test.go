package pipeline

import "testing"

// SetPurgeCountedBelow lowers the size past which a dropped partition's
// runs are read off its statistics, for the test's duration, so that a
// test need not fill 100,000 runs.
func SetPurgeCountedBelow(t testing.TB, n float64) {
	was := purgeCountedBelow
	purgeCountedBelow = n
	t.Cleanup(func() { purgeCountedBelow = was })
}

// ProbePooledWith is TransactionPooled with afterFirst run after the
// probe's first read: a test's other client acts between its statements.
var ProbePooledWith = probePooled
