package subject_test

import (
	"context"
	"errors"
	"testing"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/subject"
)

const shopDDL = `
	create table members (id int primary key, email varchar(40) not null unique, name text not null,
		born date, plan text not null default 'free', score int generated always as (id * 2) stored);
	create table orders (id int primary key, member_id int references members, total numeric(10,2) not null);
	create index on orders (member_id);`

// Every fault of a declaration is named at once, each checked by the
// server itself: a blank reason, unknown columns, null for NOT NULL, a
// value its type refuses or cuts, a constant for a unique column, a
// generated column, a referenced key.
func TestValidationNamesEveryFault(t *testing.T) {
	pool := setup(t, shopDDL)
	d := subject.Declaration{Root: "members", Tables: map[string]subject.Treatment{
		"members": subject.Anonymize(map[string]any{
			"email": "a-very-long-address-that-does-not-fit-forty@example.invalid",
			"name":  nil,
			"born":  "not a date",
			"nope":  1,
			"score": 0,
			"id":    0,
		}),
		"orders": subject.Retain("  "),
	}}
	refused(t, pool, d, errcode.SubjectTreatmentInvalid,
		"orders: the retain reason is blank",
		"anonymize names column nope, which it does not have",
		"column name is NOT NULL: it cannot be anonymized to null",
		"the anonymize value of column born is not a valid date (SQLSTATE 22007)",
		"the anonymize value of column email does not fit character varying(40) without change",
		"column score is generated",
		"column id is a key other rows reference",
	)
	d.Tables["members"] = subject.Anonymize(map[string]any{"email": "erased@example.invalid", "name": ""})
	d.Tables["orders"] = subject.Retain("tax law: 10 years")
	refused(t, pool, d, errcode.SubjectTreatmentInvalid, "every erased person would get the same value of (email)")
	d.Tables["members"] = subject.Anonymize(map[string]any{"email": subject.SQL("'erased-' || id || '@x.invalid'"), "name": "", "born": nil})
	plan(t, pool, d)
	d.Tables["members"] = subject.Anonymize(map[string]any{"email": subject.SQL("no_such_column"), "name": ""})
	refused(t, pool, d, errcode.SubjectTreatmentInvalid, "the anonymize expression of column email does not run as character varying(40) (SQLSTATE 42703)")
}

// Kept rows under a deleted parent are refused: NO ACTION would block the
// parent's delete, CASCADE would remove them. Releasing them (anonymize
// the key to null, or ON DELETE SET NULL) is accepted.
func TestKeptRowsUnderADeletedParent(t *testing.T) {
	pool := setup(t, shopDDL)
	d := subject.Declaration{Root: "members", Tables: map[string]subject.Treatment{
		"members": subject.Delete(), "orders": subject.Retain("tax law: 10 years")}}
	refused(t, pool, d, errcode.SubjectTreatmentInvalid,
		"delete on members is blocked: kept rows of orders reference it by orders(member_id) ON DELETE NO ACTION")
	exec(t, pool, `alter table orders drop constraint orders_member_id_fkey,
		add foreign key (member_id) references members on delete cascade`)
	refused(t, pool, d, errcode.SubjectTreatmentInvalid,
		"kept rows of orders reference members by orders(member_id) ON DELETE CASCADE: deleting members would remove them")
	d.Tables["orders"] = subject.Anonymize(map[string]any{"member_id": nil})
	plan(t, pool, d)
	exec(t, pool, `alter table orders drop constraint orders_member_id_fkey,
		add foreign key (member_id) references members on delete set null`)
	d.Tables["orders"] = subject.Retain("tax law: 10 years")
	plan(t, pool, d)
	exec(t, pool, `insert into members (id, email, name) values (1, 'a@x', 'A'), (2, 'b@x', 'B');
		insert into orders values (1, 1, 10), (2, 2, 20)`)
	if r, _ := fixtures.Run(t, pool, eraseJob(d, 10), eraseIn{Member: 1}); r.State != "done" {
		t.Fatalf("%s %+v", r.State, r.LastError)
	}
	if n := count(t, pool, `select count(*) from orders where member_id is null`); n != 1 {
		t.Errorf("%d orders released; want the person's one, kept", n)
	}
}

// A retained parent stops the walk: the likes on a retained post are not
// the person's, and a table reached only through it is not reached.
func TestRetainedParentStopsTheWalk(t *testing.T) {
	pool := setup(t, `
		create table members (id int primary key);
		create table posts (id int primary key, author_id int references members on delete set null);
		create table post_likes (post_id int not null references posts, liker int not null, primary key (post_id, liker));
		create index on posts (author_id);`)
	d := subject.Declaration{Root: "members", Tables: map[string]subject.Treatment{
		"members": subject.Delete(), "posts": subject.Retain("the forum's"), "post_likes": subject.Delete()}}
	p := plan(t, pool, d)
	if p.Table("post_likes") != nil || len(p.Notes) != 1 {
		t.Fatalf("post_likes reached through a retained table: %v, notes %v", order(p), p.Notes)
	}
}

// A worker refuses to start when its erase no longer matches the
// catalog: a table added since, referencing a deleted one, has no
// treatment.
func TestWorkerRefusesAStaleDeclaration(t *testing.T) {
	pool := setup(t, forumDDL)
	job := eraseJob(forum(), 10)
	reg, _ := pipeline.NewRegistry(job)
	if err := reg.Verify(context.Background(), pool); err != nil {
		t.Fatalf("verify: %v", err)
	}
	exec(t, pool, `create table reactions (id int primary key, comment_id bigint references comments)`)
	w, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	err = w.Start(context.Background())
	if !errors.Is(err, errcode.SubjectTableUndeclared) {
		_ = w.Shutdown(context.Background())
		t.Fatalf("start: %v; want X_SUBJECT_TABLE_UNDECLARED", err)
	}
	if want := "reactions"; !contains(err.Error(), want) {
		t.Errorf("%v does not name %s", err, want)
	}
}

func TestDeclarationShapeIsRefusedAtDeclaration(t *testing.T) {
	_, err := subject.NewErase(subject.EraseOptions[eraseIn]{Name: "x", Subject: subject.Declaration{
		Tables: map[string]subject.Treatment{"a": {}, "b": {Delete: true, Retain: "why"}}}})
	if !errors.Is(err, errcode.JobDeclarationInvalid) {
		t.Fatalf("%v", err)
	}
	for _, want := range []string{"Person", "root is empty", "table a: the treatment is empty", "table b: declare exactly one"} {
		if !contains(err.Error(), want) {
			t.Errorf("%v does not say %q", err, want)
		}
	}
}
