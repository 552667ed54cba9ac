package storebench

import (
	"encoding/binary"
	"math/rand/v2"
	"time"
)

// uuidV7 answers a version 7 UUID made at t: t's Unix milliseconds in its
// first 48 bits, then the version, the variant and random bits, as pipe's
// own ids are, so that the list's created range (which bounds ids by the
// time they carry) finds the fixture's runs.
func uuidV7(t time.Time, r *rand.Rand) [16]byte {
	var id [16]byte
	ms := uint64(t.UnixMilli())
	for i := 5; i >= 0; i-- {
		id[i] = byte(ms)
		ms >>= 8
	}
	binary.BigEndian.PutUint64(id[8:], r.Uint64())
	rest := r.Uint32()
	id[6] = 0x70 | byte(rest>>24)&0x0f
	id[7] = byte(rest >> 16)
	id[8] = 0x80 | id[8]&0x3f
	return id
}

// uuidTime answers the millisecond a version 7 UUID carries.
func uuidTime(id [16]byte) time.Time {
	var ms int64
	for _, b := range id[:6] {
		ms = ms<<8 | int64(b)
	}
	return time.UnixMilli(ms)
}
