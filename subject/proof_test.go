package subject_test

import (
	"context"
	"testing"

	"github.com/pipekit/pipe/errcode"
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
