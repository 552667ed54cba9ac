package exportrows_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/exportrows"
)

// ordersDDL is the orders table of the anchors, 2,500 rows of it.
const ordersDDL = `create table orders(id uuid primary key, org_id uuid not null, total bigint not null,
	note text, created_at timestamptz not null);
	insert into orders select md5('o' || i)::uuid, md5('org' || i % 7)::uuid, i * 100,
		(array['plain', 'with, comma', 'say "hi"', e'two\nlines', 'Zoë', null])[1 + i % 6],
		timestamptz '2026-01-01 00:00:00+00' + i * interval '1 minute 1.5 second'
	from generate_series(1, 2500) i`

func TestEveryFormatAndCompressionWritesWhatItsManifestSays(t *testing.T) {
	b := setup(t, ordersDDL)
	for _, format := range []exportrows.Format{exportrows.CSV, exportrows.NDJSON, exportrows.Parquet} {
		for _, comp := range []blob.Compression{blob.CompressionNone, blob.CompressionGzip, blob.CompressionZstd} {
			t.Run(fmt.Sprintf("%s-%s", format, comp), func(t *testing.T) {
				in := b.in(t, "orders")
				in.Format, in.Compression, in.PageRows = format, string(comp), 1000
				res := b.export(t, options(), in)
				bk, m := manifestOf(t, res)
				if m.Rows != 2500 || len(m.Parts) != 3 || m.Format != format || m.Compression != comp {
					t.Fatalf("manifest: %d rows in %d parts, %s %s", m.Rows, len(m.Parts), m.Format, m.Compression)
				}
				for i, p := range m.Parts {
					if n := countRows(t, bk, format, p.Key); n != p.Rows || p.Rows != []int64{1000, 1000, 500}[i] {
						t.Errorf("part %s holds %d rows; the manifest says %d", p.Key, n, p.Rows)
					}
				}
			})
		}
	}
}

// countRows counts the rows the object at key holds.
func countRows(t testing.TB, b *blob.Bucket, format exportrows.Format, key string) int64 {
	t.Helper()
	switch format {
	case exportrows.CSV:
		recs, err := csv.NewReader(bytes.NewReader(decoded(t, b, key))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		return int64(len(recs) - 1)
	case exportrows.NDJSON:
		return int64(bytes.Count(decoded(t, b, key), []byte("\n")))
	}
	r, err := file.NewParquetReader(bytes.NewReader(readAll(t, b, key)))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	return r.NumRows()
}

var _ = context.Background
