package hostile_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/importrows"
	"github.com/pipekit/pipe/internal/hostile"
	"github.com/pipekit/pipe/pg"
)

// The peak resident memory allowed to a process refusing a bomb: the test
// binary with its worker and pool (about 30 MiB) and the import's own
// buffers (a page's, the decoders'), far from what any bomb asks for.
const capMiB = 100

// bomb is one hostile file, the limits of its import and how the import
// must end.
type bomb struct {
	name   string
	file   string // its name; the extension names the format
	write  func(w io.Writer) error
	ddl    string
	limits importrows.Limits
	code   errcode.Code
	capMiB float64 // 0: capMiB
}

func bytesOf(b []byte) func(io.Writer) error {
	return func(w io.Writer) error { _, err := w.Write(b); return err }
}

func bombs() []bomb {
	text, pq := hostile.BombTable, hostile.ParquetTable
	unlimitedRatio := importrows.Limits{DecodeLimits: importrows.DecodeLimits{MaxRatio: 1 << 40}}
	return []bomb{
		{name: "zstd window 512 MiB (--long=29), 256 MiB of rows", file: "long29.csv.zst", ddl: text,
			write: func(w io.Writer) error { return hostile.Zstd(w, hostile.Rows(256<<20), 512<<20) },
			code:  errcode.CompressionWindowTooLarge},
		{name: "zstd window claimed 1 GiB (--long=30)", file: "long30.csv.zst", ddl: text,
			write: func(w io.Writer) error {
				var z bytes.Buffer
				if err := hostile.Zstd(&z, hostile.Rows(1<<20), 1<<20); err != nil {
					return err
				}
				_, err := w.Write(hostile.ClaimWindow(z.Bytes(), 30))
				return err
			},
			code: errcode.CompressionWindowTooLarge},
		{name: "zstd inflating to 256 MiB", file: "ratio.csv.zst", ddl: text,
			write: func(w io.Writer) error { return hostile.Zstd(w, hostile.Repeated(256<<20), 1<<20) },
			code:  errcode.DecompressedTooLarge},
		{name: "gzip inflating to 64 MiB", file: "ratio.csv.gz", ddl: text,
			write: func(w io.Writer) error { return hostile.Gzip(w, hostile.Repeated(64<<20)) },
			code:  errcode.DecompressedTooLarge},
		{name: "parquet page of 346 MiB", file: "big.parquet", ddl: pq,
			write: bytesOf(hostile.BigPage(346 << 20)), code: errcode.DecompressedTooLarge},
		{name: "parquet page of 346 MiB, ratio unlimited", file: "big.parquet", ddl: pq, limits: unlimitedRatio,
			write: bytesOf(hostile.BigPage(346 << 20)), code: errcode.ParquetTooLarge},
		{name: "parquet page of 346 MiB, footer declaring 1 KiB", file: "big.parquet", ddl: pq,
			write: bytesOf(hostile.BigPageSmallFooter(346 << 20)), code: errcode.DecompressedTooLarge},
		{name: "parquet page declaring 1 KiB, inflating to 512 MiB", file: "inflating.parquet", ddl: pq,
			write: bytesOf(hostile.InflatingPage(512 << 20)), code: errcode.DecompressedTooLarge},
		{name: "parquet page of 100M values in 5 bytes", file: "values.parquet", ddl: pq,
			write: bytesOf(hostile.ManyValues(100_000_000)), code: errcode.ParquetTooLarge},
		{name: "parquet 16 columns of 30 MiB pages, ratio unlimited, 64 MiB of open pages allowed", file: "wide.parquet",
			ddl: wideTable(16), write: bytesOf(hostile.Wide(16, 30<<20)), code: errcode.ParquetTooLarge,
			limits: importrows.Limits{DecodeLimits: importrows.DecodeLimits{MaxRatio: 1 << 40, MaxParquetMemory: 64 << 20}},
			capMiB: capMiB + 2*64},
		{name: "parquet snappy page claiming 4 GiB", file: "snappy.parquet", ddl: pq,
			write: bytesOf(hostile.SnappyClaim()), code: errcode.DecompressedTooLarge},
		{name: "parquet LZ4 page of noise", file: "lz4.parquet", ddl: pq,
			write: bytesOf(hostile.LZ4Garbage()), code: errcode.ImportRecordInvalid},
		{name: "parquet footer claiming 2^31 row groups", file: "claim.parquet", ddl: pq,
			write: bytesOf(hostile.FooterClaim()), code: errcode.ImportRecordInvalid},
		{name: "parquet footer of noise", file: "noise.parquet", ddl: pq,
			write: bytesOf(hostile.CorruptFooter()), code: errcode.ImportRecordInvalid},
	}
}

// wideTable is a table of n text columns, as [hostile.Wide] names them.
func wideTable(n int) string {
	cols := make([]string, n)
	for i := range cols {
		cols[i] = "c" + string(rune('a'+i)) + " text"
	}
	return "create table bomb(" + strings.Join(cols, ", ") + ")"
}

// Every bomb is imported by pipe.import in a process of its own: the run
// ends at its first attempt with the bomb's code, the table holds no row,
// and the process's peak resident memory stays under the cap (not under
// the race detector, whose shadow memory multiplies it).
func TestBombsAreRefusedWithinMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("makes and imports a dozen bombs")
	}
	for _, b := range bombs() {
		t.Run(b.name, func(t *testing.T) {
			m, rows := importBomb(t, b)
			t.Logf("%s: %s after %d attempt(s), %s; %d rows; peak RSS %.0f MiB %s", b.name, m.State, m.Attempt, m.Code, rows, m.PeakMiB, m.Exit)
			limit := b.capMiB
			if limit == 0 {
				limit = capMiB
			}
			switch {
			case m.Exit != "":
				t.Fatalf("the import's process died: %s", m.Exit)
			case m.Code != string(b.code) || m.Attempt != 1:
				t.Fatalf("%s after %d attempts with %s (%s), want %s at the first", m.State, m.Attempt, m.Code, m.Message, b.code)
			case rows != 0:
				t.Fatalf("%d rows written", rows)
			case m.PeakMiB > limit && !raced:
				t.Fatalf("peak RSS %.0f MiB, over the cap of %.0f MiB", m.PeakMiB, limit)
			case strings.Contains(m.Message, "nnnn") || strings.Contains(m.Message, "1,x"):
				t.Fatalf("the message quotes the file: %s", m.Message)
			}
		})
	}
}

// importBomb writes b in a temporary directory, imports it alone and
// answers the child's ending and the rows in the table after.
func importBomb(t *testing.T, b bomb) (measured, int) {
	t.Helper()
	path := filepath.Join(t.TempDir(), b.file)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.write(f); err != nil {
		t.Fatalf("make the bomb: %v", err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	url := fixtures.DBURL(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, b.ddl); err != nil {
		t.Fatal(err)
	}
	m := importAlone(t, url, importrows.FileImport{Source: path, Into: pg.Relation{Name: "bomb"}, Limits: b.limits}, 3*time.Minute)
	var rows int
	if err := conn.QueryRow(ctx, `select count(*) from bomb`).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	return m, rows
}

// The harness's control: a genuine compressed file of 32 MiB of rows
// imports whole, in the same process and under the same cap.
func TestAGenuineFileImportsWithinTheCap(t *testing.T) {
	if testing.Short() {
		t.Skip("imports 32 MiB in a child process")
	}
	genuine := bomb{file: "rows.csv.zst", ddl: hostile.BombTable,
		write: func(w io.Writer) error { return hostile.Zstd(w, hostile.Rows(32<<20), 1<<20) }}
	m, rows := importBomb(t, genuine)
	t.Logf("genuine: %s after %d attempt(s); %d rows; peak RSS %.0f MiB %s", m.State, m.Attempt, rows, m.PeakMiB, m.Exit)
	if m.State != "done" || rows < 500_000 || m.PeakMiB > capMiB && !raced {
		t.Fatalf("%s with %d rows (%s %s), peak RSS %.0f MiB", m.State, rows, m.Code, m.Message, m.PeakMiB)
	}
}
