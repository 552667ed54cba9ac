package subject_test

import (
	"context"
	"slices"
	"testing"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/subject"
)

// Two paths reach likes: through the member's posts, and from the member.
// The person's likes are both: the likes they gave, and the likes on their
// posts, which go with the posts.
func TestDiamondTwoPathsToOneTable(t *testing.T) {
	pool := setup(t, `
		create table members (id int primary key);
		create table posts (id int primary key, author_id int not null references members);
		create index on posts (author_id);
		create table likes (id int primary key, member_id int not null references members, post_id int not null references posts);
		create index on likes (member_id); create index on likes (post_id);
		insert into members values (1), (2);
		insert into posts values (10, 1), (20, 2);
		insert into likes values (1, 1, 10), (2, 1, 20), (3, 2, 10), (4, 2, 20);`)
	d := subject.Declaration{Root: "members", Tables: map[string]subject.Treatment{
		"members": subject.Delete(), "posts": subject.Delete(), "likes": subject.Delete()}}
	p := plan(t, pool, d)
	if got := order(p); !slices.Equal(got, []string{"likes", "posts", "members"}) {
		t.Fatalf("order %v", got)
	}
	if keys := p.Table("likes").Keys; len(keys) != 2 {
		t.Fatalf("likes is reached by %d keys, want 2: %+v", len(keys), keys)
	}
	d2, _ := fixtures.Run(t, pool, eraseJob(d, 1), eraseIn{Member: 1})
	if d2.State != "done" {
		t.Fatalf("%s %+v", d2.State, d2.LastError)
	}
	var left []int
	if err := pool.QueryRow(context.Background(), `select array_agg(id order by id) from likes`).Scan(&left); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(left, []int{4}) {
		t.Fatalf("likes left %v; want only the bystander's like of the bystander's post", left)
	}
}

// Comments reply to comments: a loop of one deleted table through a
// nullable key. The key is cleared first, so another person's reply to
// the person's comment stays, released; the person's comments go.
func TestSelfReferenceRepliesAreReleased(t *testing.T) {
	pool := setup(t, `
		create table members (id int primary key);
		create table comments (id int primary key, author_id int not null references members,
			reply_to int references comments, body text);
		create index on comments (author_id); create index on comments (reply_to);
		insert into members values (1), (2);
		insert into comments values (1, 1, null, 'a'), (2, 2, 1, 'reply by 2'), (3, 1, 2, 'reply by 1'), (4, 2, 3, 'deep');`)
	d := subject.Declaration{Root: "members", Tables: map[string]subject.Treatment{"members": subject.Delete(), "comments": subject.Delete()}}
	p := plan(t, pool, d)
	if len(p.Clears) != 1 || p.Clears[0].Table != "comments" || p.Clears[0].Columns[0] != "reply_to" {
		t.Fatalf("clears %+v; want comments(reply_to)", p.Clears)
	}
	d2, res := fixtures.Run(t, pool, eraseJob(d, 1), eraseIn{Member: 1})
	if d2.State != "done" {
		t.Fatalf("%s %+v", d2.State, d2.LastError)
	}
	if n := count(t, pool, `select count(*) from comments where author_id = 2 and reply_to is null`); n != 2 {
		t.Errorf("%d of the bystander's replies are left, released; want 2", n)
	}
	if n := count(t, pool, `select count(*) from comments`); n != 2 {
		t.Errorf("%d comments left; want the bystander's 2", n)
	}
	if res.Cleared != 2 {
		t.Errorf("cleared %d keys; want the replies to the person's comments 2 and 4", res.Cleared)
	}
}

// A composite key: the person is (org_id, member_id), and their documents
// reference both columns.
func TestCompositeForeignKey(t *testing.T) {
	pool := setup(t, `
		create table members (org_id int, member_id int, name text, primary key (org_id, member_id));
		create table documents (id int primary key, org_id int not null, owner_id int not null, title text,
			foreign key (org_id, owner_id) references members);
		create index on documents (org_id, owner_id);
		insert into members values (1, 1, 'a'), (1, 2, 'b'), (2, 1, 'c');
		insert into documents values (1, 1, 1, 'x'), (2, 1, 2, 'y'), (3, 2, 1, 'z');`)
	d := subject.Declaration{Root: "members", Tables: map[string]subject.Treatment{"members": subject.Delete(), "documents": subject.Delete()}}
	if p := plan(t, pool, d); !slices.Equal(p.Key, []string{"org_id", "member_id"}) || len(p.Unindexed) != 0 {
		t.Fatalf("key %v, unindexed %v", p.Key, p.Unindexed)
	}
	job := subject.MustErase(subject.EraseOptions[[2]int]{Name: "test.erase.composite", Subject: d,
		Person: func(in [2]int) subject.Key { return subject.Key{in[0], in[1]} }})
	d2, _ := fixtures.Run(t, pool, job, [2]int{1, 1})
	if d2.State != "done" {
		t.Fatalf("%s %+v", d2.State, d2.LastError)
	}
	if n := count(t, pool, `select count(*) from documents`); n != 2 {
		t.Errorf("%d documents left; want the other two people's", n)
	}
	if n := count(t, pool, `select count(*) from members where (org_id, member_id) = (1, 1)`); n != 0 {
		t.Errorf("the member is still there")
	}
	if _, err := subject.Proof(context.Background(), pool, d); err != nil {
		t.Errorf("proof: %v", err)
	}
}

const loopDDL = `
	create table members (id int primary key);
	create table teams (id int primary key, owner_id int not null references members, lead_id int %s);
	create table seats (id int primary key, team_id int not null references teams);
	alter table teams add foreign key (lead_id) references seats;
	create index on teams (owner_id); create index on teams (lead_id); create index on seats (team_id);`

func loopDecl() subject.Declaration {
	return subject.Declaration{Root: "members", Tables: map[string]subject.Treatment{
		"members": subject.Delete(), "teams": subject.Delete(), "seats": subject.Delete()}}
}

// teams and seats reference each other and both are deleted: the nullable
// teams.lead_id is cleared first, then seats go before teams.
func TestNullableLoopIsClearedFirst(t *testing.T) {
	pool := setup(t, sprintf(loopDDL, "")+`
		insert into members values (1), (2);
		insert into teams values (1, 1, null), (2, 2, null);
		insert into seats values (1, 1), (2, 1), (3, 2);
		update teams set lead_id = 1 where id = 1; update teams set lead_id = 3 where id = 2;`)
	p := plan(t, pool, loopDecl())
	if len(p.Clears) != 1 || p.Clears[0].Table != "teams" {
		t.Fatalf("clears %+v; want teams(lead_id)", p.Clears)
	}
	if got := order(p); !slices.Equal(got, []string{"seats", "teams", "members"}) {
		t.Fatalf("order %v", got)
	}
	d, _ := fixtures.Run(t, pool, eraseJob(loopDecl(), 1), eraseIn{Member: 1})
	if d.State != "done" {
		t.Fatalf("%s %+v", d.State, d.LastError)
	}
	if n := count(t, pool, `select count(*) from seats`); n != 1 {
		t.Errorf("%d seats left; want the bystander's 1", n)
	}
	if n := count(t, pool, `select count(*) from teams where id = 2 and lead_id = 3`); n != 1 {
		t.Errorf("the bystander's team changed")
	}
	if _, err := subject.Proof(context.Background(), pool, loopDecl()); err != nil {
		t.Errorf("proof: %v", err)
	}
}

// With teams.lead_id NOT NULL the loop has no key to clear: no delete order
// exists.
func TestNonNullableLoopIsACycle(t *testing.T) {
	pool := setup(t, sprintf(loopDDL, "not null"))
	refused(t, pool, loopDecl(), errcode.SubjectCycle, "the loop", "teams(lead_id)", "seats(team_id)", "no nullable key")
}

// audit_copies holds the member's id without a foreign key: invisible to
// the walk until declared in columns, then reached and erased.
func TestTableWithoutForeignKeyIsFoundOnlyWhenDeclared(t *testing.T) {
	pool := setup(t, `
		create table members (id int primary key);
		create table audit_copies (id int primary key, member_ref int, note text);
		create index on audit_copies (member_ref);
		insert into members values (1), (2);
		insert into audit_copies values (1, 1, 'x'), (2, 2, 'y'), (3, 1, 'z');`)
	d := subject.Declaration{Root: "members", Tables: map[string]subject.Treatment{"members": subject.Delete()}}
	if p := plan(t, pool, d); len(p.Tables) != 1 {
		t.Fatalf("without columns the walk reached %v", order(p))
	}
	d.Columns = map[string][]string{"audit_copies": {"member_ref"}}
	refused(t, pool, d, errcode.SubjectTableUndeclared, "audit_copies (reached by members <- audit_copies(member_ref) [columns])")
	d.Tables["audit_copies"] = subject.Delete()
	d2, _ := fixtures.Run(t, pool, eraseJob(d, 1), eraseIn{Member: 1})
	if d2.State != "done" {
		t.Fatalf("%s %+v", d2.State, d2.LastError)
	}
	if n := count(t, pool, `select count(*) from audit_copies where member_ref = 1`); n != 0 {
		t.Errorf("%d audit copies of the person left", n)
	}
	if n := count(t, pool, `select count(*) from audit_copies where member_ref = 2`); n != 1 {
		t.Errorf("the bystander's audit copy went")
	}
	if _, err := subject.Proof(context.Background(), pool, d); err != nil {
		t.Errorf("proof: %v", err)
	}
	d.Columns["audit_copies"] = []string{"no_such"}
	refused(t, pool, d, errcode.SubjectTreatmentInvalid, "columns of audit_copies names column no_such")
}

// A partitioned table is walked through its parent's keys, and erased
// like any other; without a primary key it is refused, its ctid naming no
// one row.
func TestPartitionedTable(t *testing.T) {
	pool := setup(t, `
		create table members (id int primary key);
		create table events (id int, member_id int not null references members, at date not null,
			primary key (id, at)) partition by range (at);
		create table events_2025 partition of events for values from ('2025-01-01') to ('2026-01-01');
		create table events_2026 partition of events for values from ('2026-01-01') to ('2027-01-01');
		create index on events (member_id);
		insert into members values (1), (2);
		insert into events values (1, 1, '2025-05-01'), (2, 1, '2026-05-01'), (3, 2, '2026-06-01');`)
	d := subject.Declaration{Root: "members", Tables: map[string]subject.Treatment{"members": subject.Delete(), "events": subject.Delete()}}
	if got := order(plan(t, pool, d)); !slices.Equal(got, []string{"events", "members"}) {
		t.Fatalf("order %v", got)
	}
	if r, _ := fixtures.Run(t, pool, eraseJob(d, 1), eraseIn{Member: 1}); r.State != "done" {
		t.Fatalf("%s %+v", r.State, r.LastError)
	}
	if n := count(t, pool, `select count(*) from events`); n != 1 {
		t.Errorf("%d events left; want the bystander's 1", n)
	}
	exec(t, pool, `create table clicks (member_id int references members, at date not null) partition by range (at);
		create table clicks_all partition of clicks default;`)
	d.Tables["clicks"] = subject.Delete()
	refused(t, pool, d, errcode.SubjectTreatmentInvalid, "table clicks is partitioned and has no primary key")
}
