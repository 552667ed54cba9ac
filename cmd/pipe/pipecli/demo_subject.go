package pipecli

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/subject"
)

// demoSubjectDDL is the demo's small forum: members, their posts
// (retained, released by SET NULL), comments replying to comments, likes
// and an audit table holding the member's id without a foreign key.
const demoSubjectDDL = `
drop table if exists demo_likes, demo_comments, demo_posts, demo_audit, demo_members cascade;
create table demo_members (id int primary key, email text not null unique, name text not null, bio text);
create table demo_posts (id int primary key, author_id int references demo_members on delete set null, title text);
create table demo_comments (id int primary key, author_id int not null references demo_members,
	post_id int references demo_posts, reply_to int references demo_comments, body text);
create table demo_likes (member_id int not null references demo_members, comment_id int not null references demo_comments,
	primary key (member_id, comment_id));
create table demo_audit (id int primary key, member_ref int not null, action text);
create index on demo_posts (author_id); create index on demo_comments (author_id); create index on demo_comments (post_id);
create index on demo_comments (reply_to); create index on demo_likes (comment_id); create index on demo_audit (member_ref);
insert into demo_members select i, 'member' || i || '@example.com', 'Member ' || i, 'bio' from generate_series(1, 50) i;
insert into demo_posts select i, 1 + i % 50, 'post ' || i from generate_series(1, 500) i;
insert into demo_comments select i, 1 + i % 50, 1 + i % 500, null, 'comment ' || i from generate_series(1, 5000) i;
update demo_comments set reply_to = id - 50 where id > 50 and id % 3 = 0;
insert into demo_likes select 1 + i % 50, i from generate_series(1, 5000) i;
insert into demo_audit select i, 1 + i % 50, 'login' from generate_series(1, 1000) i;
`

// demoSubjectDeclaration is the demo's person: the member anonymized, the
// posts retained, the rest deleted.
func demoSubjectDeclaration() subject.Declaration {
	return subject.Declaration{
		Root: "demo_members",
		Tables: map[string]subject.Treatment{
			"demo_members":  subject.Anonymize(map[string]any{"email": subject.SQL("'erased-' || id || '@example.invalid'"), "name": "", "bio": nil}),
			"demo_posts":    subject.Retain("published posts belong to the forum"),
			"demo_comments": subject.Delete(),
			"demo_likes":    subject.Delete(),
			"demo_audit":    subject.Delete(),
		},
		Columns: map[string][]string{"demo_audit": {"member_ref"}},
		Sealed:  map[string][]string{"demo_members": {"email"}},
	}
}

// demoSubjectReport is the demo's erase part, as --json prints it.
type demoSubjectReport struct {
	Plan  *subject.Plan        `json:"plan"`
	Proof *subject.ProofReport `json:"proof"`
	Erase subject.EraseResult  `json:"erase"`
}

// demoSubject creates the demo forum, plans its declaration, proves it,
// and erases member 7 with pipe.subject.erase worked in this process.
func (a *app) demoSubject(ctx context.Context, pool *pgxpool.Pool) (*demoSubjectReport, error) {
	if _, err := pool.Exec(ctx, demoSubjectDDL); err != nil {
		return nil, err
	}
	d := demoSubjectDeclaration()
	rep := &demoSubjectReport{}
	var err error
	if rep.Plan, err = subject.NewPlan(ctx, pool, d); err != nil {
		return nil, err
	}
	a.say("\nthe person's data, walked from demo_members by foreign key:\n%s", rep.Plan.String())
	if rep.Proof, err = subject.Proof(ctx, pool, d); err != nil {
		return nil, err
	}
	a.say("%s\n%s\n", proofLines(rep.Proof), narrateSubjectIntro())
	in := subject.Request{Subject: d, Key: []string{"7"}, PageRows: 100}
	a.say("erasing member 7 with %s…\n", subject.EraseJobName)
	if _, rep.Erase, err = runHere(ctx, a, pool, subject.EraseJob(), in, nil); err != nil {
		return nil, err
	}
	var left, others int
	err = pool.QueryRow(ctx, `select (select count(*) from demo_comments where author_id = 7) + (select count(*) from demo_likes where member_id = 7)
		+ (select count(*) from demo_audit where member_ref = 7), (select count(*) from demo_comments where author_id <> 7)`).Scan(&left, &others)
	if err != nil {
		return nil, err
	}
	a.say("erased: %s; %d rows of member 7 left, %d comments of the other members kept\n", tableLine(rep.Erase.Tables), left, others)
	if left != 0 {
		return rep, fmt.Errorf("demo: %d rows of the erased member are left", left)
	}
	return rep, nil
}

// narrateSubjectIntro says what the erase part shows.
func narrateSubjectIntro() string {
	return strings.TrimSpace(`
Every reached table states a treatment; a table added later without one refuses the plan
(X_SUBJECT_TABLE_UNDECLARED). The proof seeded canaries for a generated person and a
bystander in one transaction, erased the person, searched every row and rolled back.`)
}
