package exportrows_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/importrows"
	"github.com/pipekit/pipe/pg"
)

// roundDDL is a table of the types both directions know, with NULLs, empty
// strings and awkward text (no cell begins as a formula: the guard's ' would
// stay on import, by design).
const roundDDL = `create table src(id uuid primary key, org uuid, total bigint, note text, at timestamptz,
	price numeric(12,2), ok boolean, day date, doc jsonb, tags text[], nums int[], raw bytea, ratio float8,
	small smallint, local timestamp);
	insert into src select md5('r' || i)::uuid, case when i % 5 = 0 then null else md5('o' || i % 3)::uuid end,
		i::bigint * 1000000007, (array['plain', '', null, 'with, comma', 'say "hi"', e'two\nlines', 'Zoë 東京 🚀'])[1 + i % 7],
		timestamptz '2026-03-01 12:00:00.5+01' + i * interval '1 hour 0.000123 second',
		case when i % 4 = 0 then null else i * 1.25 end, i % 3 = 0, date '2024-02-28' + i,
		case when i % 6 = 0 then null else jsonb_build_object('i', i, 's', 'x"y', 'a', jsonb_build_array(1, null)) end,
		case when i % 5 = 0 then null else array['a', 'b c', null] end, array[i, -i], decode(md5(i::text), 'hex'),
		i / 7.0, (i % 100)::smallint, timestamp '2026-01-01' + i * interval '1 day 1 microsecond'
	from generate_series(1, 100) i;
	create table dst (like src including all)`

// Exported, then imported by pipe's importer into a copy: the same rows,
// for every format and compression.
func TestRoundTripThroughImportrows(t *testing.T) {
	for _, format := range []exportrows.Format{exportrows.CSV, exportrows.NDJSON, exportrows.Parquet} {
		for _, comp := range []blob.Compression{blob.CompressionNone, blob.CompressionGzip, blob.CompressionZstd} {
			t.Run(fmt.Sprintf("%s-%s", format, comp), func(t *testing.T) {
				b := setup(t, roundDDL)
				in := b.in(t, "src")
				in.Format, in.Compression, in.PageRows = format, string(comp), 40
				_, m := manifestOf(t, b.export(t, options(), in))
				importParts(t, b, m)
				var n, diff int
				err := b.pool.QueryRow(context.Background(), `select (select count(*) from dst), (select count(*) from (
					(select * from src except all select * from dst) union all
					(select * from dst except all select * from src)) d)`).Scan(&n, &diff)
				if err != nil || n != 100 || diff != 0 {
					t.Fatalf("imported %d rows, %d differ from the source (%v)", n, diff, err)
				}
			})
		}
	}
}

// importParts imports every part of m into dst with importrows.TableJob.
func importParts(t *testing.T, b *bundle, m *exportrows.Manifest) {
	t.Helper()
	job := importrows.TableJob()
	var ids []string
	for _, p := range m.Parts {
		res, err := job.Enqueue(context.Background(), b.pool, importrows.FileImport{
			Source: b.bucket + "/" + p.Key, Into: pg.Relation{Name: "dst"}, Key: []string{"id"},
		})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.ID)
	}
	startWorker(t, b.pool, job)
	for _, id := range ids {
		if d := awaitSettled(t, b.pool, id); d.State != "done" {
			t.Fatalf("import %s: %s", d.State, lastError(d))
		}
	}
}
