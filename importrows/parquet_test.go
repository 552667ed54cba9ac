package importrows_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/parquet-go/parquet-go"

	"github.com/pipekit/pipe/importrows"
)

type pqOrder struct {
	ID        [16]byte  `parquet:"id,uuid"`
	Total     int64     `parquet:"total"`
	Note      *string   `parquet:"note,optional"`
	CreatedAt time.Time `parquet:"created_at,timestamp(microsecond)"`
	Tags      []string  `parquet:"tags,list"`
}

func TestImportParquetRowGroupsArePages(t *testing.T) {
	b := setup(t, `create table pq(id uuid primary key, total bigint not null, note text, created_at timestamptz not null, tags text[])`)
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[pqOrder](&buf, parquet.MaxRowsPerRowGroup(400))
	note := "Zoë, \"quoted\""
	rows := make([]pqOrder, 1000)
	for i := range rows {
		rows[i] = pqOrder{ID: uuid.New(), Total: int64(i), CreatedAt: time.Date(2026, 3, 8, 7, 0, i%60, 0, time.UTC), Tags: []string{"a", "b"}}
		if i%2 == 0 {
			rows[i].Note = &note
		}
	}
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	d, res := run(t, b.pool, importrows.MustNew(fileKey, tableOptions("pq", "id")), b.put(t, "o.parquet", buf.Bytes()))
	if d.State != "done" || res.Rows != 1000 || res.Pages != 3 {
		t.Fatalf("%s %+v %+v: want 1000 rows in 3 pages (row groups of 400)", d.State, res, d.LastError)
	}
	if n := count(t, b, `select count(*) from pq where note = 'Zoë, "quoted"' and tags = '{a,b}' and created_at = '2026-03-08 07:00:06Z' and total = 6`); n != 1 {
		t.Fatal("values did not come through")
	}
	if n := count(t, b, `select count(*) from pq where note is null`); n != 500 {
		t.Fatalf("%d null notes, want 500", n)
	}
}

func TestImportParquetHeaderMismatch(t *testing.T) {
	b := setup(t, `create table pq(id uuid primary key, total bigint not null)`)
	var buf bytes.Buffer
	if err := parquet.Write(&buf, []pqOrder{{ID: uuid.New()}}); err != nil {
		t.Fatal(err)
	}
	d, _ := run(t, b.pool, importrows.MustNew(fileKey, tableOptions("pq", "id")), b.put(t, "o.parquet", buf.Bytes()))
	if lastCode(d) != "X_IMPORT_HEADER_MISMATCH" || !bytes.Contains([]byte(d.LastError.Message), []byte(`unknown "note" (column 3), "created_at" (column 4), "tags" (column 5)`)) {
		t.Fatalf("%s %+v", d.State, d.LastError)
	}
}
