// Package subject erases or exports one person's data across every table
// that holds it: a GDPR erasure or access request is a job.
//
// # Declaring the person
//
// A [Declaration] is a plain value, the same in Go and in JSON ([Load],
// subject.schema.json): the root table with one row per person, a
// [Treatment] for every table the walk reaches — [Delete], [Anonymize]
// or [Retain] with its reason; nothing defaults — the tables that hold
// the person's key without a foreign key (Columns), the person's objects
// in a bucket (Objects) and the columns an export never writes (Sealed).
// Data held elsewhere — a search index, another service, objects a table
// lists — is a [Target] of Go code (Targets, absent from the JSON form;
// [ObjectsOf] is the stock one for objects).
//
//	var memberSubject = subject.Declaration{
//		Root: "members",
//		Tables: map[string]subject.Treatment{
//			"members":  subject.Anonymize(map[string]any{"email": subject.SQL("'erased-' || id || '@example.invalid'"), "name": ""}),
//			"posts":    subject.Retain("published work belongs to the org"),
//			"comments": subject.Delete(),
//			"likes":    subject.Delete(),
//		},
//		Columns: map[string][]string{"audit_copies": {"member_id"}},
//		Objects: []subject.Objects{{Name: "avatars", Bucket: "s3://avatars", Prefix: "members/{id}/"}},
//		Sealed:  map[string][]string{"members": {"password_hash"}},
//	}
//
// # The walk
//
// [NewPlan] walks the foreign keys PostgreSQL knows (pg_constraint:
// single and composite keys, self references, several paths to one
// table) from the root, breadth first. Every key referencing the root or a
// deleted table reaches its table; the walk goes on only from tables whose
// treatment is delete — the likes on a retained post are not the
// person's, the likes on a deleted one go with it. A reached table without
// a treatment is X_SUBJECT_TABLE_UNDECLARED, naming it and the path that
// reached it (members <- comments(author_id) <- reports(comment_id)), so a
// table added next month refuses the plan — and, through JobOptions.Verify,
// the worker's start — until it is declared. A table holding the person's
// key without a foreign key is invisible to the walk until Columns names
// it.
//
// # Validation
//
// Each treatment is checked against the catalog, every fault named in one
// X_SUBJECT_TREATMENT_INVALID: a blank reason, an unknown column, null for
// a NOT NULL column, a value its column's type refuses or would change
// (PostgreSQL itself casts each constant, in a savepoint), an SQL
// expression that does not run, one constant for every person in a unique
// column, a generated column, a key other rows reference, a role without
// the privilege. A kept (anonymized or retained) row under a deleted
// parent is refused: ON DELETE NO ACTION or RESTRICT would block the
// delete, CASCADE would remove the kept row; anonymizing the key to null,
// or ON DELETE SET NULL, releases it.
//
// # Loops
//
// A loop of deleted tables (comments replying to comments, two tables
// referencing each other) is broken by clearing one of its keys first: one
// the database sets null on delete, else a nullable one, a self reference
// first. The rows referencing the person's rows through a cleared key are
// released, not deleted: another person's reply to the person's comment
// stays, its reply_to null. A loop without a nullable key is
// X_SUBJECT_CYCLE. Other people's root rows referencing the person's
// deleted rows are cleared the same way.
//
// # Erasing
//
// [NewErase] declares the erase job, a [pipeline.Job] like any other. A
// run plans the live catalog, clears the loops' keys, then treats every
// reached table children first and the root last, a step per page of
// PageRows rows: each page's writes and its checkpoint commit in one
// transaction (StepTx), so a killed run resumes at the page it stopped on.
// Each page finds the person's rows still to treat — a delete the rows
// left, an anonymize the rows not holding their values yet — so a replay
// changes nothing twice and the checkpoint holds counts, never keys. Every
// comparison is an equality on key columns, a single column as
// = any(array(...)), so each step is index lookups; [Plan.Explain] shows
// the server's plans, and Plan.Unindexed names the keys with no index.
// Before any table the person's objects are deleted and each target's
// Erase called (one step each: a target can still read the person's rows);
// after the tables a check counts the person's rows
// left (the app may have written some meanwhile: another pass, up to 3)
// and the root is treated; a root delete blocked by a row written
// meanwhile takes another pass too.
//
// # Exporting
//
// [NewExport] declares the export job: every reached table, whatever its
// treatment (a retained row is still the person's), read in pages in
// row-identity order — one pass per table — each page one object
// <prefix>/<runId>/<table>/part-NNNNN.ndjson (or .csv), written through
// exportrows' encoders; the person's objects copied into objects/<name>/,
// each target's Export written under targets/<name>/;
// then index.json last ([Index]: each table's row count, treatment, retain
// reason and parts). Sealed columns never leave. With
// ExportOptions.Replica each page is read on a hot standby, which holds
// what it has replayed: a row the person gained on the primary that the
// standby has not yet replayed is not exported.
//
// # Proof
//
// [Proof] proves a declaration against a real database in one transaction
// rolled back at the end: it seeds every reached table with rows of a
// generated person and of a bystander — canaries in every column that can
// hold text — erases the person as the job does, and searches every
// stored row of every reached table (with Everywhere, every table: a
// trigger's copy is caught). The person's canary outside a retain (or a
// column an anonymize keeps) is X_SUBJECT_ERASE_INCOMPLETE naming table and
// column; a bystander row changed is X_SUBJECT_BYSTANDER_TOUCHED. The
// rollback undoes what PostgreSQL rolls back: a sequence an anonymize
// expression or a seeded row's default advanced stays advanced.
//
// # The stock jobs
//
// [EraseJob] and [ExportJob], pipe.subject.erase and pipe.subject.export,
// carry the whole declaration in their input ([Request]); `pipe subject
// erase|export` check it first with [Request.Plan] — what a run's first
// step checks: the declaration planned, the person's key cast to the root
// key's types — so a refused request is never enqueued, then enqueue them,
// and `pipe worker` runs them.
//
// An erase counts apart, in [EraseResult].Released, other people's rows it
// changed: rows that referenced the person's rows without being theirs,
// their key set to null by a clear or by ON DELETE SET NULL, and kept.
//
// # Errors
//
// X_SUBJECT_TABLE_UNDECLARED, X_SUBJECT_TREATMENT_INVALID, X_SUBJECT_CYCLE,
// X_SUBJECT_ERASE_INCOMPLETE, X_SUBJECT_BYSTANDER_TOUCHED and
// X_SUBJECT_PROOF_UNSEEDABLE are terminal. A statement PostgreSQL refuses
// is X_SUBJECT_STATEMENT_FAILED (retried), or X_JOB_INPUT_INVALID when a
// value does not fit its column (a key that is not a number for an integer
// key); neither quotes the server's message, which can quote a value.
// Statements are traced as spans "pipe.subject <step>" under the worker's
// TracerProvider.
package subject
