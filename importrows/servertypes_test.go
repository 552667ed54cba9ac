package importrows_test

import (
	"context"
	"testing"

	"github.com/pipekit/pipe/importrows"
)

// A column of a type pipe does not read itself — interval, inet, a range,
// an enum, a composite, a domain, an array of them — takes its text as
// PostgreSQL's input function reads it; a value that function refuses (or a
// domain's check) refuses its row alone, as X_IMPORT_FIELD_INVALID.
func TestTypesPipeDoesNotReadGoToTheServerAsWritten(t *testing.T) {
	b := setup(t, `create type mood as enum ('sad', 'ok');
		create type pair as (a int, b text);
		create domain posint as integer check (value > 0);
		create table odd(id int primary key, iv interval, ip inet, r int4range, m mood, p pair, d posint, ms mood[], tv tsvector)`)
	file := "id,iv,ip,r,m,p,d,ms,tv\n" +
		`1,1 day 02:00:00,10.0.0.1/8,"[1,5)",sad,"(1,""x, y"")",7,"{sad,ok}",` + "\n" +
		`2,,,,,,,,""` + "\n"
	d, res := run(t, b.pool, importrows.MustNew(fileKey, tableOptions("odd", "id")), b.put(t, "odd.csv", []byte(file)))
	if d.State != "done" || res.Rows != 2 || res.Refused != 0 {
		t.Fatalf("%s %+v %+v", d.State, res, d.LastError)
	}
	var got string
	err := b.pool.QueryRow(context.Background(), `select string_agg(concat_ws('|', iv, ip, r, m, p, d, ms, tv, tv is null), ';' order by id) from odd`).Scan(&got)
	if want := `1 day 02:00:00|10.0.0.1/8|[1,5)|sad|(1,"x, y")|7|{sad,ok}|t;|f`; err != nil || got != want {
		t.Fatalf("table holds %q (%v), want %q", got, err, want)
	}
	bad := b.put(t, "bad.csv", []byte("id,m,d\n3,happy,1\n4,ok,-1\n5,ok,2\n"))
	d, res = run(t, b.pool, importrows.MustNew(fileKey, tableOptions("odd", "id")), bad)
	if d.State != "done" || res.Rows != 1 || res.Refused != 2 {
		t.Fatalf("an enum label the type lacks and a domain's check: %s %+v %s, want done with two rows refused", d.State, res, lastCode(d))
	}
}
