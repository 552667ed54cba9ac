// Package orders writes the orders CSV of the anchors' generator
// (bench/anchors/gen_orders.py): the file `pipe bench import` and
// `pipe bench export` measure with, `pipe demo` imports, and importrows'
// benchmark reads. It imports nothing of pipe.
package orders

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"

	"github.com/google/uuid"
)

// notes are the anchor generator's awkward cases (gen_orders.py): quoted
// commas, doubled quotes, newlines inside quotes, multibyte UTF-8.
var notes = []string{"plain", "with, comma", `say "hi"`, "two\nlines", "Zoë Ærøskøbing", "東京 注文", "emoji 🚀 rocket"}

// Write writes n orders as the anchors' generator does — header
// id,org_id,total,note,created_at, about 117 bytes a row — deterministic for
// a seed.
func Write(w io.Writer, n int, seed uint64) error {
	rnd := rand.New(rand.NewPCG(seed, seed))
	orgs := make([]string, 50)
	for i := range orgs {
		orgs[i] = randomUUID(rnd)
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	bw.WriteString("id,org_id,total,note,created_at\n")
	for range n {
		note := notes[rnd.IntN(len(notes))]
		if strings.ContainsAny(note, ",\"\n") {
			note = `"` + strings.ReplaceAll(note, `"`, `""`) + `"`
		}
		fmt.Fprintf(bw, "%s,%s,%d,%s,2026-%02d-%02dT%02d:%02d:00Z\n", randomUUID(rnd), orgs[rnd.IntN(len(orgs))],
			rnd.IntN(10_000_001), note, 1+rnd.IntN(12), 1+rnd.IntN(28), rnd.IntN(24), rnd.IntN(60))
	}
	return bw.Flush()
}

func randomUUID(rnd *rand.Rand) string {
	var b [16]byte
	for i := range b {
		b[i] = byte(rnd.Uint32())
	}
	return uuid.UUID(b).String()
}

// WriteFile writes n orders of seed to path.
func WriteFile(path string, n int, seed uint64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := Write(f, n, seed); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
