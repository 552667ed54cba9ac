package subject_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/subject"
)

// The declaration's JSON form, as `pipe subject --config` reads it.
func ExampleParse() {
	d, err := subject.Parse([]byte(`{
		"root": "members",
		"tables": {
			"members": {"anonymize": {"email": {"$sql": "'erased-' || id || '@example.invalid'"}, "name": ""}},
			"posts": {"retain": "published work belongs to the org"},
			"comments": "delete"
		},
		"columns": {"audit_copies": ["member_id"]}
	}`))
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range []string{"members", "posts", "comments"} {
		fmt.Println(t, d.Tables[t])
	}
	// Output:
	// members anonymize email, name
	// posts retain
	// comments delete
}

type eraseMember struct {
	OrgID    string `json:"orgId"`
	MemberID string `json:"memberId"`
}

var memberSubject = subject.Declaration{
	Root: "members",
	Tables: map[string]subject.Treatment{
		"members":  subject.Anonymize(map[string]any{"email": subject.SQL("'erased-' || id || '@example.invalid'"), "name": ""}),
		"posts":    subject.Retain("published work belongs to the org"),
		"comments": subject.Delete(),
		"likes":    subject.Delete(),
	},
}

// The app's tables: member 42 with a post, a comment and a like, and
// another member's comment beside them.
const forumTables = `
create table members (id bigint primary key, email text not null unique, name text not null);
create table posts (id bigint primary key, author_id bigint references members, title text);
create table comments (id bigint primary key, author_id bigint not null references members,
	post_id bigint references posts, body text);
create table likes (member_id bigint not null references members, comment_id bigint not null references comments,
	primary key (member_id, comment_id));
insert into members values (42, 'ada@example.com', 'Ada'), (7, 'grace@example.com', 'Grace');
insert into posts values (1, 42, 'Notes on the engine');
insert into comments values (1, 42, 1, 'A correction'), (2, 7, 1, 'Thank you');
insert into likes values (42, 2);
`

// An erase job, enqueued in the app's own transaction and run by a
// worker: member 42's comments and likes are deleted, their member row
// anonymized and their post retained.
func ExampleNewErase() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pool, drop := fixtures.ExampleDB() // your application's pool
	defer drop()
	if _, err := pool.Exec(ctx, forumTables); err != nil {
		log.Fatal(err)
	}
	erase := subject.MustErase(subject.EraseOptions[eraseMember]{
		Name:    "members.erase",
		Subject: memberSubject,
		Person:  func(in eraseMember) subject.Key { return subject.Key{in.MemberID} },
		Job:     pipeline.JobOptions[eraseMember, subject.EraseResult]{Tenant: func(in eraseMember) string { return in.OrgID }},
	})
	tx, err := pool.Begin(ctx)
	if err != nil {
		log.Fatal(err)
	}
	res, err := erase.Enqueue(ctx, tx, eraseMember{OrgID: "org-1", MemberID: "42"})
	if err != nil {
		log.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil { // the commit is the enqueue
		log.Fatal(err)
	}

	run := work(ctx, pool, erase, res.ID) // a worker runs it until it settles
	var result subject.EraseResult
	if err := json.Unmarshal(run.Result, &result); err != nil {
		log.Fatal(err)
	}
	for _, t := range result.Tables {
		fmt.Println(t.Table, t.Treatment, t.Rows)
	}
	var email, name string
	if err := pool.QueryRow(ctx, `select email, name from members where id = 42`).Scan(&email, &name); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("member 42: %s %q\n", email, name)
	// Output:
	// posts retain 0
	// likes delete 1
	// comments delete 1
	// members anonymize 1
	// member 42: erased-42@example.invalid ""
}

// An export job: one object per page per table, then index.json.
func ExampleNewExport() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pool, drop := fixtures.ExampleDB() // your application's pool
	defer drop()
	if _, err := pool.Exec(ctx, forumTables); err != nil {
		log.Fatal(err)
	}
	export := subject.MustExport(subject.ExportOptions[eraseMember]{
		Name:    "members.export",
		Subject: memberSubject,
		Person:  func(in eraseMember) subject.Key { return subject.Key{in.MemberID} },
		Sink: func(in eraseMember) exportrows.Sink {
			return exportrows.Sink{Bucket: "mem://exports", Prefix: "org/" + in.OrgID + "/subjects/" + in.MemberID} // s3://, gs://, ...
		},
	})
	res, err := export.Enqueue(ctx, pool, eraseMember{OrgID: "org-1", MemberID: "42"})
	if err != nil {
		log.Fatal(err)
	}

	run := work(ctx, pool, export, res.ID) // a worker runs it until it settles
	var result subject.ExportResult
	if err := json.Unmarshal(run.Result, &result); err != nil {
		log.Fatal(err)
	}
	for _, t := range result.Tables {
		fmt.Println(t.Table, t.Rows)
	}
	// Output:
	// posts 1
	// likes 1
	// comments 1
	// members 1
}

// work runs job with a worker on pool until run id settles, and answers
// the run as `pipe jobs show` does.
func work(ctx context.Context, pool *pgxpool.Pool, job pipeline.Registrable, id string) *pipeline.RunDetail {
	reg, err := pipeline.NewRegistry(job)
	if err != nil {
		log.Fatal(err)
	}
	w, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg})
	if err != nil {
		log.Fatal(err)
	}
	if err := w.Start(ctx); err != nil {
		log.Fatal(err)
	}
	defer func() { _ = w.Shutdown(context.Background()) }()
	admin := pipeline.NewAdmin(pool)
	run, err := admin.Show(ctx, id)
	for err == nil && run.State.Live() {
		time.Sleep(50 * time.Millisecond)
		run, err = admin.Show(ctx, id)
	}
	if err != nil {
		log.Fatal(err)
	}
	return run
}

// The proof, pointed at a real database: it seeds a person and a bystander
// in every reached table, erases, searches, and rolls it all back.
func ExampleProof() {
	ctx := context.Background()
	pool, drop := fixtures.ExampleDB() // your application's database, or a copy of its schema
	defer drop()
	if _, err := pool.Exec(ctx, forumTables); err != nil {
		log.Fatal(err)
	}
	rep, err := subject.Proof(ctx, pool, memberSubject)
	if err != nil {
		log.Fatal(err) // X_SUBJECT_ERASE_INCOMPLETE names the table and column
	}
	fmt.Println("searched", rep.Searched, "tables")
	// Output: searched 3 tables
}
