package pipeline

import (
	"encoding/hex"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
)

// idTimeMargin is how far a run's created_at may lie from the time its
// UUIDv7 id carries (the enqueuing process's clock against the database's)
// for a created range to still find it through the id bounds it adds. Five
// minutes is far past the skew of two clocks kept by NTP, and near enough
// that a range reads few runs beyond it (an hour read 40,000 a bound at 1M
// runs a day).
const idTimeMargin = 5 * time.Minute

// uuidDashes are the places of the dashes in an id's text.
var uuidDashes = [...]int{8, 13, 18, 23}

// prefixRange answers the ids whose text (id::text, dashes included)
// starts with prefix, as the range lower <= id < upper (upper nil: no end).
// ok is false when prefix cannot begin an id's text (a dash out of place,
// a hex digit where a dash goes): then no id matches. Ids compare as their
// bytes, in the order of their hex text, so the range is the prefix match.
func prefixRange(prefix string) (lower uuid.UUID, upper *uuid.UUID, ok bool) {
	var digits strings.Builder
	for i, c := range prefix {
		dash := slices.Contains(uuidDashes[:], i)
		if dash != (c == '-') {
			return uuid.UUID{}, nil, false
		}
		if !dash {
			digits.WriteRune(c)
		}
	}
	h := digits.String()
	lower = mustHexID(h + strings.Repeat("0", 32-len(h)))
	next, carried := hexIncrement(h)
	if carried {
		return lower, nil, true
	}
	u := mustHexID(next + strings.Repeat("0", 32-len(next)))
	return lower, &u, true
}

// hexIncrement adds one to the lowercase hex number h, keeping its length;
// carried is true when it overflowed (h was all f).
func hexIncrement(h string) (string, bool) {
	b := []byte(h)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] != 'f' {
			if b[i] == '9' {
				b[i] = 'a'
			} else {
				b[i]++
			}
			return string(b), false
		}
		b[i] = '0'
	}
	return string(b), true
}

// mustHexID reads 32 hex digits as an id; callers pass only hex.
func mustHexID(h string) uuid.UUID {
	var id uuid.UUID
	if _, err := hex.Decode(id[:], []byte(h)); err != nil {
		panic("pipeline: id bound " + err.Error())
	}
	return id
}

// idAt answers the least UUIDv7 id made at t's millisecond or later: the
// time in its first 48 bits, zeros after. ok is false past the last
// millisecond an id can carry; t before 1970 answers the least id.
func idAt(t time.Time) (id uuid.UUID, ok bool) {
	ms := t.UnixMilli()
	if ms < 0 {
		return id, true
	}
	if ms >= 1<<48 {
		return id, false
	}
	for i := 5; i >= 0; i-- {
		id[i] = byte(ms)
		ms >>= 8
	}
	return id, true
}
