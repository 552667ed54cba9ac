package subject_test

import (
	"context"
	"testing"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/subject"
)

func TestProofPassesOnTheForum(t *testing.T) {
	pool := setup(t, forumDDL)
	rep, err := subject.Proof(context.Background(), pool, forum())
	if err != nil {
		t.Fatalf("proof: %v", err)
	}
	t.Logf("%+v", rep)
	if n := count(t, pool, `select count(*) from members`); n != 0 {
		t.Errorf("the proof left %d members behind", n)
	}
}

// The proof catches a column the declaration forgot: members is
// anonymized, but its bio still holds the person's text.
func TestProofCatchesAMissedColumn(t *testing.T) {
	pool := setup(t, forumDDL)
	d := forum()
	d.Tables["members"] = subject.Anonymize(map[string]any{"email": subject.SQL("'erased-' || id || '@example.invalid'"), "name": ""})
	d.Tables["posts"] = subject.Retain("published work belongs to the forum")
	_, err := subject.Proof(context.Background(), pool, d)
	e, ok := errcode.As(err)
	if !ok || e.Code != errcode.SubjectEraseIncomplete {
		t.Fatalf("proof: %v; want X_SUBJECT_ERASE_INCOMPLETE", err)
	}
	if want := "the person's canary is still in members.bio"; !contains(e.Message, want) {
		t.Errorf("%s\ndoes not say %q", e.Message, want)
	}
	d.Tables["members"] = subject.Treatment{Anonymize: map[string]any{"email": subject.SQL("'erased-' || id || '@example.invalid'"), "name": "", "bio": nil}}
	if _, err := subject.Proof(context.Background(), pool, d); err != nil {
		t.Fatalf("with bio anonymized too: %v", err)
	}
}

// A one-to-one table (a unique key made of its foreign key) gets one row
// per person; a check constraint the generator cannot meet is refused
// with the table and constraint named, and met with the proof's values.
func TestProofSeedsOneToOneTablesAndTakesValues(t *testing.T) {
	pool := setup(t, `
		create table members (id int primary key, handle text not null check (handle ~ '^@'));
		create table profiles (member_id int primary key references members, about text);
		create table settings (id int generated always as identity primary key, member_id int not null unique references members, theme text);`)
	d := subject.Declaration{Root: "members", Tables: map[string]subject.Treatment{
		"members": subject.Delete(), "profiles": subject.Delete(), "settings": subject.Delete()}}
	_, err := subject.Proof(context.Background(), pool, d)
	if e, ok := errcode.As(err); !ok || e.Code != errcode.SubjectProofUnseedable || !contains(e.Message, "members_handle_check") {
		t.Fatalf("proof: %v; want X_SUBJECT_PROOF_UNSEEDABLE naming members_handle_check", err)
	}
	rep, err := subject.Proof(context.Background(), pool, d, subject.ProofOptions{Rows: 3,
		Values: map[string]map[string]any{"members": {"handle": "@someone"}}})
	if err != nil {
		t.Fatalf("proof with values: %v", err)
	}
	for _, tb := range rep.Tables {
		if want := map[string]int{"members": 1, "profiles": 1, "settings": 1}[tb.Table]; tb.Rows != want {
			t.Errorf("%s: %d rows seeded, want %d", tb.Table, tb.Rows, want)
		}
	}
}

// A retained root keeps the member's row while their comments go; an
// anonymize's kept column is not searched, and says why.
func TestRetainedRootAndKeptColumns(t *testing.T) {
	pool := setup(t, forumDDL+forumRows)
	d := forum()
	d.Tables["members"] = subject.Retain("the account record is kept for the contract's term")
	if r, res := fixtures.Run(t, pool, eraseJob(d, 50), eraseIn{Member: 1}); r.State != "done" || res.Tables[len(res.Tables)-1].Rows != 0 {
		t.Fatalf("%s %+v %+v", r.State, r.LastError, res)
	}
	if n := count(t, pool, `select count(*) from members where id = 1`) + count(t, pool, `select count(*) from comments where author_id = 1`); n != 1 {
		t.Fatalf("want the member's row and none of their comments; %d rows", n)
	}
	if _, err := subject.Proof(context.Background(), pool, d); err != nil {
		t.Fatalf("proof: %v", err)
	}
	d.Tables["members"] = subject.Treatment{Anonymize: map[string]any{"email": subject.SQL("'erased-' || id || '@x.invalid'"), "name": ""},
		Keep: map[string]string{"bio": "the bio is the forum's moderation note"}}
	if _, err := subject.Proof(context.Background(), pool, d); err != nil {
		t.Fatalf("proof with bio kept: %v", err)
	}
	d.Tables["members"] = subject.Treatment{Anonymize: map[string]any{"name": ""}, Keep: map[string]string{"bio": " "}}
	refused(t, pool, d, errcode.SubjectTreatmentInvalid, "the keep reason of column bio is blank")
}

// What PostgreSQL never rolls back survives the proof, as its doc says: a
// sequence an anonymize expression (or a seeded row's default) advances
// stays advanced; the rows themselves are gone.
func TestProofLeavesASequenceAdvanced(t *testing.T) {
	pool := setup(t, `create sequence erased;
		create table members (id int primary key, email text not null)`)
	d := subject.Declaration{Root: "members", Tables: map[string]subject.Treatment{
		"members": subject.Anonymize(map[string]any{"email": subject.SQL("'erased-' || nextval('erased')")})}}
	if _, err := subject.Proof(context.Background(), pool, d); err != nil {
		t.Fatalf("proof: %v", err)
	}
	if n := count(t, pool, `select count(*) from members`); n != 0 {
		t.Errorf("the proof left %d members behind", n)
	}
	if n := count(t, pool, `select count(*) from erased where is_called`); n == 0 {
		t.Fatal("the sequence did not move: the proof's doc says it does")
	}
}
