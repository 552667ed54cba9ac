package subject_test

import (
	"context"
	"fmt"
	"log"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/exportrows"
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

// An erase job, enqueued in the app's own transaction.
func ExampleNewErase() {
	erase := subject.MustErase(subject.EraseOptions[eraseMember]{
		Name:    "members.erase",
		Subject: memberSubject,
		Person:  func(in eraseMember) subject.Key { return subject.Key{in.MemberID} },
		Job:     pipeline.JobOptions[eraseMember, subject.EraseResult]{Tenant: func(in eraseMember) string { return in.OrgID }},
	})
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, "postgres:///app")
	if err != nil {
		log.Fatal(err)
	}
	tx, err := pool.Begin(ctx)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := erase.Enqueue(ctx, tx, eraseMember{OrgID: "org-1", MemberID: "42"}); err != nil {
		log.Fatal(err)
	}
	_ = tx.Commit(ctx) // the commit is the enqueue
}

// An export job: one object per page per table, then index.json.
func ExampleNewExport() {
	export := subject.MustExport(subject.ExportOptions[eraseMember]{
		Name:    "members.export",
		Subject: memberSubject,
		Person:  func(in eraseMember) subject.Key { return subject.Key{in.MemberID} },
		Sink: func(in eraseMember) exportrows.Sink {
			return exportrows.Sink{Bucket: "s3://exports", Prefix: "org/" + in.OrgID + "/subjects/" + in.MemberID}
		},
	})
	fmt.Println(export.Name())
}

// The proof, pointed at a real database: it leaves nothing behind.
func ExampleProof() {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, "postgres:///app")
	if err != nil {
		log.Fatal(err)
	}
	rep, err := subject.Proof(ctx, pool, memberSubject)
	if err != nil {
		log.Fatal(err) // X_SUBJECT_ERASE_INCOMPLETE names the table and column
	}
	fmt.Println("searched", rep.Searched, "tables")
}
