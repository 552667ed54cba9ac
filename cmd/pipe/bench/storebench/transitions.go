package storebench

import (
	"encoding/binary"
	"time"
)

// The transition kinds a run's row journals in its transitions column, as
// pipe.transitions decodes them (migration 0011).
const (
	transitionEnqueued  = 1
	transitionClaimed   = 2
	transitionCompleted = 3
)

// transitionSize is one encoded transition: its kind, its journal
// sequence number, the attempt and the time in microseconds since the epoch.
const transitionSize = 1 + 8 + 4 + 8

// appendTransition appends one transition to b, encoded as
// pipe.transition(kind, attempt, at) encodes it.
func appendTransition(b []byte, kind byte, seq int64, attempt int32, at time.Time) []byte {
	b = append(b, kind)
	b = binary.BigEndian.AppendUint64(b, uint64(seq))
	b = binary.BigEndian.AppendUint32(b, uint32(attempt))
	return binary.BigEndian.AppendUint64(b, uint64(at.UnixMicro()))
}
