package subject_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/subject"
)

// The app writes the person's rows while the erase runs (here a trigger:
// deleting the person's first comment posts a like of theirs, after the
// likes were done). The check finds it and the erase takes another pass.
func TestRowsWrittenDuringTheEraseTakeAnotherPass(t *testing.T) {
	pool := setup(t, forumDDL+forumRows+`
		create table fired (done bool);
		create function like_again() returns trigger language plpgsql as $$
		begin
			if old.author_id = 1 and not exists (select from fired) then
				insert into fired values (true);
				insert into likes values (1, 1) on conflict do nothing;
			end if;
			return old;
		end $$;
		create trigger like_again after delete on comments for each row execute function like_again();`)
	d, res := fixtures.Run(t, pool, eraseJob(forum(), 100), eraseIn{Member: 1})
	if d.State != "done" {
		t.Fatalf("%s %+v", d.State, d.LastError)
	}
	if res.Passes != 2 {
		t.Errorf("%d passes; want 2: the check found the like written during the first", res.Passes)
	}
	if n := count(t, pool, `select count(*) from likes where member_id = 1`); n != 0 {
		t.Errorf("%d likes of the person left", n)
	}
}

// An app trigger that rewrites other people's rows when the person's are
// deleted is caught by the proof: the bystander's row changed.
func TestProofCatchesATouchedBystander(t *testing.T) {
	pool := setup(t, forumDDL+`
		create function touch_all() returns trigger language plpgsql as $$
		begin update posts set title = 'touched' where title is distinct from 'touched'; return old; end $$;
		create trigger touch_all after delete on comments for each statement execute function touch_all();`)
	_, err := subject.Proof(context.Background(), pool, forum())
	if e, ok := errcode.As(err); !ok || e.Code != errcode.SubjectBystanderTouched || !contains(e.Message, "posts") {
		t.Fatalf("proof: %v; want X_SUBJECT_BYSTANDER_TOUCHED naming posts", err)
	}
}

// A trigger copying the person's comments into a log table outside the
// reach is found with Everywhere.
func TestProofEverywhereFindsATriggersCopy(t *testing.T) {
	pool := setup(t, forumDDL+`
		create table comment_log (body text);
		create function log_comment() returns trigger language plpgsql as $$
		begin insert into comment_log values (new.body); return new; end $$;
		create trigger log_comment after insert on comments for each row execute function log_comment();`)
	if _, err := subject.Proof(context.Background(), pool, forum()); err != nil {
		t.Fatalf("the reached tables are clean, yet: %v", err)
	}
	_, err := subject.Proof(context.Background(), pool, forum(), subject.ProofOptions{Everywhere: true})
	if !errorsIs(err, errcode.SubjectEraseIncomplete) || !contains(err.Error(), "comment_log.body") {
		t.Fatalf("proof everywhere: %v; want comment_log.body named", err)
	}
}

// The person's objects are deleted with their rows (a retained entry
// stays), exported beside them, and seeded and checked by the proof.
func TestObjectsOutsideTheDatabase(t *testing.T) {
	pool := setup(t, forumDDL+forumRows)
	dir := t.TempDir()
	for _, f := range []string{"avatars/1/a.png", "avatars/1/b.png", "avatars/10/c.png", "avatars/2/d.png", "invoices/1.pdf", "invoices/10.pdf"} {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d := forum()
	d.Objects = []subject.Objects{
		{Name: "avatars", Bucket: "file://" + dir, Prefix: "avatars/{id}/"},
		{Name: "invoices", Bucket: "file://" + dir, Prefix: "invoices/{id}.pdf", Retain: "tax law"},
	}
	_, exp := fixtures.Run(t, pool, exportJob(d, 100), exportIn{Member: 1, Bucket: "file://" + t.TempDir(), Format: exportrows.CSV})
	if len(exp.Objects) != 2 || len(exp.Objects[0].Keys) != 2 || len(exp.Objects[1].Keys) != 1 {
		t.Fatalf("exported objects %+v; want the person's 2 avatars and 1 invoice", exp.Objects)
	}
	if _, err := subject.Proof(context.Background(), pool, d); err != nil {
		t.Fatalf("proof: %v", err)
	}
	r, res := fixtures.Run(t, pool, eraseJob(d, 1), eraseIn{Member: 1})
	if r.State != "done" || res.Objects[0].Deleted != 2 || !res.Objects[1].Retained {
		t.Fatalf("%s %+v: %+v", r.State, r.LastError, res.Objects)
	}
	for f, want := range map[string]bool{"avatars/1/a.png": false, "avatars/1/b.png": false, "avatars/10/c.png": true, "avatars/2/d.png": true, "invoices/1.pdf": true} {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f))); (err == nil) != want {
			t.Errorf("%s: there %v, want %v", f, err == nil, want)
		}
	}
}
