package split_test

import (
	"encoding/hex"
	"math/rand/v2"
	"strconv"
	"strings"
)

// notes are the awkward cases a real export has, as in
// shared/anchors/gen_orders.py: quoted commas, doubled quotes, newlines
// inside quotes, multibyte UTF-8.
var notes = []string{"plain", "with, comma", `say "hi"`, "two\nlines", "Zoë Ærøskøbing", "東京 注文", "emoji 🚀 rocket"}

// orders answers at least size bytes of the CSV gen_orders.py writes:
// id,org_id,total,note,created_at with random UUIDs, about 117 bytes a row.
// It is deterministic.
func orders(size int) []byte {
	rnd := rand.New(rand.NewPCG(7, 7))
	orgs := make([]string, 50)
	for i := range orgs {
		orgs[i] = uuid(rnd)
	}
	b := make([]byte, 0, size+256)
	b = append(b, "id,org_id,total,note,created_at\n"...)
	for len(b) < size {
		b = append(b, uuid(rnd)...)
		b = append(b, ',')
		b = append(b, orgs[rnd.IntN(len(orgs))]...)
		b = append(b, ',')
		b = strconv.AppendInt(b, rnd.Int64N(10_000_001), 10)
		b = append(b, ',')
		b = appendNote(b, notes[rnd.IntN(len(notes))])
		b = append(b, ",2026-"...)
		b = append(b, two(rnd.IntN(12)+1)...)
		b = append(b, '-')
		b = append(b, two(rnd.IntN(28)+1)...)
		b = append(b, 'T')
		b = append(b, two(rnd.IntN(24))...)
		b = append(b, ':')
		b = append(b, two(rnd.IntN(60))...)
		b = append(b, ":00Z\n"...)
	}
	return b
}

func appendNote(b []byte, note string) []byte {
	if !strings.ContainsAny(note, ",\"\n") {
		return append(b, note...)
	}
	return append(append(append(b, '"'), strings.ReplaceAll(note, `"`, `""`)...), '"')
}

func uuid(rnd *rand.Rand) string {
	var u [16]byte
	for i := range u {
		u[i] = byte(rnd.Uint32())
	}
	h := hex.EncodeToString(u[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

func two(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}
