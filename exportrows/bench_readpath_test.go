package exportrows_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/exportrows"
)

// BenchmarkCSVReadPath compares the ways to read the orders as CSV files:
// anchor is one unordered COPY TO STDOUT into one file (psql \copy's
// work); copy-keyset is the COPY alternative to the export's reading —
// keyset pages of COPY, the key passed through a setting, each file
// scanned quote-aware for its last record (and still without the formula
// guard or RFC 3339 times); export is the export job itself (binary reads,
// pipe's encoder, the job's steps), in key order and in snapshot order.
func BenchmarkCSVReadPath(b *testing.B) {
	bn := benchOrders(b)
	b.Run("anchor", func(b *testing.B) {
		for range b.N {
			copyTo(b, bn.pool, `copy (select * from orders) to stdout (format csv)`, nil)
		}
		b.ReportMetric(float64(b.N*benchRows())/b.Elapsed().Seconds(), "rows/s")
	})
	b.Run("copy-keyset", func(b *testing.B) {
		for range b.N {
			copyKeyset(b, bn.pool)
		}
		b.ReportMetric(float64(b.N*benchRows())/b.Elapsed().Seconds(), "rows/s")
	})
	b.Run("export", func(b *testing.B) { benchExportOn(b, bn, exportrows.ByKey) })
	b.Run("export-snapshot", func(b *testing.B) { benchExportOn(b, bn, exportrows.Snapshot) })
}

func benchExportOn(b *testing.B, bn *bundle, order exportrows.Order) {
	job := exportrows.MustNew(exportKey, options())
	startWorker(b, bn.pool, job)
	b.ResetTimer()
	for i := range b.N {
		in := bn.in(b, "orders")
		in.Run, in.Order = "path"+string(order)+strconv.Itoa(i), order
		res, err := job.Enqueue(context.Background(), bn.pool, in)
		if err != nil {
			b.Fatal(err)
		}
		if d := awaitSettled(b, bn.pool, res.ID); d.State != "done" {
			b.Fatalf("%s: %s", d.State, lastError(d))
		}
	}
	b.ReportMetric(float64(b.N*benchRows())/b.Elapsed().Seconds(), "rows/s")
}

// copyKeyset reads the orders in keyset pages of COPY, each into a file.
func copyKeyset(b *testing.B, pool *pgxpool.Pool) {
	after := ""
	for page := 0; ; page++ {
		sql := `copy (select * from orders order by id limit ` + strconv.Itoa(exportrows.DefaultPageRows) + `) to stdout (format csv)`
		if page > 0 {
			sql = `copy (select * from orders where id > current_setting('pipe.after')::uuid order by id limit ` +
				strconv.Itoa(exportrows.DefaultPageRows) + `) to stdout (format csv)`
		}
		sc := copyTo(b, pool, sql, &after)
		if sc.records < exportrows.DefaultPageRows {
			return
		}
		after = string(sc.last[:bytes.IndexByte(sc.last, ',')])
	}
}

// copyTo runs one COPY TO STDOUT into a file, through a SHA-256 and a
// quote-aware scanner, in a transaction where pipe.after is *after.
func copyTo(b *testing.B, pool *pgxpool.Pool, sql string, after *string) *tailScanner {
	ctx := context.Background()
	tx, err := pool.Begin(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	if after != nil {
		if _, err := tx.Exec(ctx, `select set_config('pipe.after', $1, true)`, *after); err != nil {
			b.Fatal(err)
		}
	}
	f, err := os.Create(filepath.Join(b.TempDir(), fmt.Sprint(time.Now().UnixNano())))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	// Buffered as psql's stdio is: CopyTo hands over one message a row.
	bw := bufio.NewWriterSize(f, 64<<10)
	sc := &tailScanner{w: io.MultiWriter(bw, sha256.New())}
	if _, err := tx.Conn().PgConn().CopyTo(ctx, sc, sql); err != nil {
		b.Fatal(err)
	}
	if err := bw.Flush(); err != nil {
		b.Fatal(err)
	}
	return sc
}

// tailScanner passes a CSV stream on, counting its records quote-aware and
// keeping the last one.
type tailScanner struct {
	w         io.Writer
	quoted    bool
	records   int
	cur, last []byte
}

func (s *tailScanner) Write(p []byte) (int, error) {
	start := 0
	for i, c := range p {
		switch {
		case c == '"':
			s.quoted = !s.quoted
		case c == '\n' && !s.quoted:
			s.cur = append(s.cur, p[start:i]...)
			s.cur, s.last = s.last[:0], s.cur
			s.records++
			start = i + 1
		}
	}
	s.cur = append(s.cur, p[start:]...)
	return s.w.Write(p)
}
