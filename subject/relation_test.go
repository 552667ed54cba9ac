package subject_test

import (
	"testing"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/subject"
)

// A declaration names its tables as SQL writes them: "Order Items" in
// schema Sales is reached from Sales.members (a bare name, folded) and
// erased; a name that does not parse, or names no table, is refused.
func TestDeclaredNamesAreReadAsSQLWritesThem(t *testing.T) {
	pool := setup(t, `create schema "Sales"; create schema sales;
		create table sales.members (id int primary key);
		create table "Sales"."Order Items" ("Item Id" int primary key, "Member Id" int not null references sales.members);
		create index on "Sales"."Order Items" ("Member Id");
		insert into sales.members values (1), (2);
		insert into "Sales"."Order Items" values (10, 1), (11, 1), (20, 2);`)
	d := subject.Declaration{Root: "Sales.Members", Tables: map[string]subject.Treatment{
		"SALES.members": subject.Delete(), `"Sales"."Order Items"`: subject.Delete()}}
	p := plan(t, pool, d)
	if got := order(p); len(got) != 2 || got[0] != `"Sales"."Order Items"` || got[1] != "sales.members" {
		t.Fatalf("order %q; want the names as a declaration writes them", got)
	}
	run, _ := fixtures.Run(t, pool, eraseJob(d, 1), eraseIn{Member: 1})
	if run.State != "done" {
		t.Fatalf("%s %+v", run.State, run.LastError)
	}
	if n := count(t, pool, `select count(*) from "Sales"."Order Items"`); n != 1 {
		t.Fatalf("%d items left; want the bystander's one", n)
	}
	refused(t, pool, subject.Declaration{Root: "sales.members", Tables: map[string]subject.Treatment{
		"sales.members": subject.Delete(), `"Sales"."Order Items"`: subject.Delete(),
		"Sales.Order Items": subject.Delete(), `"sales"."Order Items"`: subject.Delete()}},
		errcode.SubjectTreatmentInvalid, "table Sales.Order Items: the relation name does not parse", `table "sales"."Order Items" does not exist`)
}
