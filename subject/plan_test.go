package subject_test

import (
	"slices"
	"testing"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/subject"
)

const forumDDL = `
create table members (id bigint primary key, email text not null unique, name text not null, bio text);
create table posts (id bigint primary key, author_id bigint references members on delete set null, title text);
create index on posts (author_id);
create table comments (id bigint primary key, author_id bigint not null references members,
	post_id bigint references posts, reply_to bigint references comments, body text);
create index on comments (author_id); create index on comments (post_id); create index on comments (reply_to);
create table likes (member_id bigint not null references members, comment_id bigint not null references comments,
	primary key (member_id, comment_id));
create index on likes (comment_id);
`

func forum() subject.Declaration {
	return subject.Declaration{
		Root: "members",
		Tables: map[string]subject.Treatment{
			"members":  subject.Delete(),
			"posts":    subject.Retain("published work belongs to the forum"),
			"comments": subject.Delete(),
			"likes":    subject.Delete(),
		},
	}
}

func TestPlanWalksTheForeignKeys(t *testing.T) {
	pool := setup(t, forumDDL)
	p := plan(t, pool, forum())
	got := order(p)
	if got[len(got)-1] != "members" || !slices.Contains(got, "posts") {
		t.Fatalf("order %v", got)
	}
	if slices.Index(got, "likes") > slices.Index(got, "comments") {
		t.Errorf("likes after comments: %v", got)
	}
	t.Log(p.String())
}

func TestUndeclaredTableIsNamedWithItsPath(t *testing.T) {
	pool := setup(t, forumDDL+`create table reports (id int primary key, comment_id bigint references comments);`)
	refused(t, pool, forum(), errcode.SubjectTableUndeclared, "table reports (reached by members <- comments(author_id) <- reports(comment_id))")
}
