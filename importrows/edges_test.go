package importrows_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/importrows"
)

// hostileCSV writes n records whose text fields put quotes, delimiters,
// newlines and 2-, 3- and 4-byte characters everywhere, so that page edges
// fall inside all of them.
func hostileCSV(n int, seed uint64) []byte {
	rnd := rand.New(rand.NewPCG(seed, seed))
	pieces := []string{"a", "bc", ",", `"`, "\n", "é", "東", "🚀", " ", "x,y", `""`, "z"}
	field := func() string {
		var sb strings.Builder
		for range rnd.IntN(40) {
			sb.WriteString(pieces[rnd.IntN(len(pieces))])
		}
		return sb.String()
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.UseCRLF = true
	w.Write([]string{"k", "a", "b"})
	for i := range n {
		w.Write([]string{fmt.Sprint(i), field(), field()})
	}
	w.Flush()
	return b.Bytes()
}

func TestImportPageEdgesMatchEncodingCSV(t *testing.T) {
	// Small pages put page edges everywhere; the default page over a file
	// of several MiB reads each page in 1 MiB chunks, putting chunk edges
	// everywhere.
	t.Run("64 KiB pages", func(t *testing.T) { importHostile(t, hostileRun{n: 6000, pageBytes: 64 << 10, minPages: 4}) })
	t.Run("chunks of the default page", func(t *testing.T) { importHostile(t, hostileRun{n: 40000, minPages: 1}) })
	t.Run("chunks of a gzip stream", func(t *testing.T) { importHostile(t, hostileRun{n: 40000, minPages: 1, gz: true}) })
	// A classic Mac file: every line end a bare CR, quoted ones too.
	t.Run("64 KiB pages, bare CR", func(t *testing.T) {
		importHostile(t, hostileRun{n: 6000, pageBytes: 64 << 10, minPages: 4, mac: true})
	})
	t.Run("chunks of a gzip stream, bare CR", func(t *testing.T) {
		importHostile(t, hostileRun{n: 40000, minPages: 1, gz: true, mac: true})
	})
}

// hostileRun is one import of hostileCSV's n records in pages of pageBytes
// (0: the default), minPages at least; gz compresses the file and mac
// writes each "\r\n" of it, quoted ones too, as a bare "\r".
type hostileRun struct {
	n         int
	pageBytes int64
	minPages  int
	gz, mac   bool
}

func importHostile(t *testing.T, h hostileRun) {
	b := setup(t, `create table h(k int primary key, a text, b text)`)
	data := hostileCSV(h.n, 3)
	o := tableOptions("h", "k")
	o.PageBytes = h.pageBytes
	file, key := data, "h.csv"
	if h.mac {
		file = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\r"))
	}
	if h.gz {
		file, key = gzipped(string(file)), "h.csv.gz"
	}
	d, res := run(t, b.pool, importrows.MustNew(fileKey, o), b.put(t, key, file))
	if d.State != "done" || res.Refused != 0 || res.Pages < h.minPages {
		t.Fatalf("%s %+v %+v", d.State, res, d.LastError)
	}
	if h.pageBytes == 0 && len(data) < 3<<20 {
		t.Fatalf("the file is %d bytes: too small to cross chunk edges", len(data))
	}
	want, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := b.pool.Query(context.Background(), `select array[k::text, coalesce(a, ''), coalesce(b, '')] from h order by k`)
	got, err := pgx.CollectRows(rows, pgx.RowTo[[]string])
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want)-1 {
		t.Fatalf("%d records imported, encoding/csv reads %d", len(got), len(want)-1)
	}
	for i, g := range got {
		// encoding/csv reads CRLF inside quotes as LF; pipe keeps the bytes
		// (a bare CR in a Mac file).
		for j := range g {
			g[j] = strings.ReplaceAll(g[j], "\r\n", "\n")
			if h.mac {
				g[j] = strings.ReplaceAll(g[j], "\r", "\n")
			}
		}
		if fmt.Sprint(g) != fmt.Sprint(want[i+1]) {
			t.Fatalf("record %d: %q, encoding/csv reads %q", i+1, g, want[i+1])
		}
	}
}

func TestImportRefusesAFileThatChangedMidRun(t *testing.T) {
	b := setup(t, ordersDDL)
	in := b.put(t, "o.csv", ordersCSV(3000))
	o := tableOptions("orders", "id")
	o.PageBytes = 64 << 10
	o.Into = nil
	o.Columns = []string{"id", "org_id", "total", "note", "created_at"}
	o.Handle = func(ctx context.Context, bt importrows.Batch[fileIn]) error {
		if bt.Page == 0 { // the file is replaced while the run reads it
			return os.WriteFile(filepath.Join(b.dir, "o.csv"), ordersCSV(3001), 0o644)
		}
		return nil
	}
	d, _ := run(t, b.pool, importrows.MustNew(fileKey, o), in)
	if d.State != "dead" || lastCode(d) != "X_IMPORT_SOURCE_CHANGED" {
		t.Fatalf("%s %+v", d.State, d.LastError)
	}
}

func TestImportRefusesACompressedFileThatChangedMidRun(t *testing.T) {
	b := setup(t, ordersDDL)
	in := b.put(t, "o.csv.gz", gzipped(string(ordersCSV(3000))))
	o := tableOptions("orders", "id")
	o.PageBytes = 64 << 10
	o.Into = nil
	o.Columns = []string{"id", "org_id", "total", "note", "created_at"}
	o.Handle = func(ctx context.Context, bt importrows.Batch[fileIn]) error {
		if bt.Page == 0 {
			return os.WriteFile(filepath.Join(b.dir, "o.csv.gz"), gzipped(string(ordersCSV(3001))), 0o644)
		}
		return nil
	}
	d, _ := run(t, b.pool, importrows.MustNew(fileKey, o), in)
	if d.State != "dead" || lastCode(d) != "X_IMPORT_SOURCE_CHANGED" {
		t.Fatalf("%s %+v", d.State, d.LastError)
	}
}
