package importrows_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/importrows"
	"github.com/pipekit/pipe/pg"
)

// quotedCSV has a bare quote inside an unquoted field (row 1), a quoted
// field over two lines beside one (row 2), and a doubled quote (row 3).
const quotedCSV = "id,place,note\n" +
	"1,37°36'37.8\"N,plain\n" +
	"2,\"a, b\nc\",5'11\"\n" +
	"3,\"say \"\"hi\"\"\",x\n"

// Strict (the default) refuses a record with a quote inside an unquoted
// field; lenient keeps the quote in the value, and a quoted field is read
// by RFC 4180 in both.
func TestImportQuotesStrictAndLenient(t *testing.T) {
	b := setup(t, `create table places(id int primary key, place text, note text)`)
	in := b.put(t, "p.csv", []byte(quotedCSV))
	job := importrows.TableJob()
	fi := importrows.FileImport{Source: in.Bucket + "/" + in.Key, Errors: in.Bucket + "/errors", Into: pg.Relation{Name: "places"}, Key: []string{"id"}}
	d, res := run(t, b.pool, job, fi)
	if d.State != "done" || res.Rows != 1 || res.Refused != 2 {
		t.Fatalf("strict: %s %+v %+v", d.State, res, d.LastError)
	}
	for _, r := range readReport(t, b, d.RunID) {
		if r["code"] != string(errcode.ImportRecordInvalid) {
			t.Fatalf("strict refusal %v", r)
		}
	}
	if got := placesRows(t, b); !slices.Equal(got, []string{`3|say "hi"|x`}) {
		t.Fatalf("strict rows %q", got)
	}
	fi.Quotes = importrows.QuotesLenient
	d, res = run(t, b.pool, job, fi)
	if d.State != "done" || res.Rows != 3 || res.Refused != 0 {
		t.Fatalf("lenient: %s %+v %+v", d.State, res, d.LastError)
	}
	want := []string{"1|37°36'37.8\"N|plain", "2|a, b\nc|5'11\"", `3|say "hi"|x`}
	if got := placesRows(t, b); !slices.Equal(got, want) {
		t.Fatalf("lenient rows %q, want %q", got, want)
	}
}

// Quotes other than strict and lenient are refused before anything runs,
// and lenient is part of the run's key; strict spelled out is the default.
func TestImportQuotesAreCheckedAndKeyed(t *testing.T) {
	fi := importrows.FileImport{Source: "file:///data/p.csv", Into: pg.Relation{Name: "places"}, Quotes: "loose"}
	if err := fi.Check(); !errors.Is(err, errcode.JobInputInvalid) {
		t.Fatalf("quotes loose: %v", err)
	}
	b := setup(t, "")
	job := importrows.TableJob()
	ctx := context.Background()
	fi.Quotes = ""
	first, err := job.Enqueue(ctx, b.pool, fi)
	if err != nil {
		t.Fatal(err)
	}
	for q, deduped := range map[importrows.Quotes]bool{importrows.QuotesStrict: true, importrows.QuotesLenient: false} {
		fi.Quotes = q
		r, err := job.Enqueue(ctx, b.pool, fi)
		if err != nil || r.Deduped != deduped {
			t.Errorf("quotes %s: deduped %v, %v; want %v", q, r.Deduped, err, deduped)
		}
		if (r.ID == first.ID) != deduped {
			t.Errorf("quotes %s: run %s beside %s", q, r.ID, first.ID)
		}
	}
}

func placesRows(t *testing.T, b *bundle) []string {
	t.Helper()
	rows, err := b.pool.Query(context.Background(), `select concat_ws('|', id, place, note) from places order by id`)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
