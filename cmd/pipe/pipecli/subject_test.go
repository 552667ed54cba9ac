package pipecli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/subject"
)

const forumDDL = `
create table members (id bigint primary key, email text not null unique, name text not null, bio text);
create table posts (id bigint primary key, author_id bigint references members on delete set null, title text);
create index on posts (author_id);
create table comments (id bigint primary key, author_id bigint not null references members, post_id bigint references posts, body text);
create index on comments (author_id); create index on comments (post_id);
insert into members values (1, 'ada@example.com', 'Ada', 'bio'), (2, 'bob@example.com', 'Bob', 'bio');
insert into posts select i, 1 + i % 2, 'post' from generate_series(1, 10) i;
insert into comments select i, 1 + i % 2, 1 + i % 10, 'c' from generate_series(1, 40) i;`

const forumConfig = `{
  "root": "members",
  "tables": {
    "members": {"anonymize": {"email": {"$sql": "'erased-' || id || '@example.invalid'"}, "name": "", "bio": null}},
    "posts": {"retain": "published work belongs to the forum"},
    "comments": "delete"
  },
  "sealed": {"members": ["email"]}
}`

// writeConfig writes a declaration file and answers its path.
func TestSubjectPlanPrintsTheWalkAndRefusesAnUndeclaredTable(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, forumDDL)
	cfg := writeConfig(t, forumConfig)
	r := b.pipe(t, "subject", "plan", "--config", cfg)
	if r.code != 0 || !strings.Contains(r.stdout, "2. comments: delete") || !strings.Contains(r.stdout, "via members <- comments(author_id)") {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = b.pipe(t, "subject", "plan", "--config", cfg, "--json")
	var p subject.Plan
	if err := json.Unmarshal([]byte(r.stdout), &p); err != nil || len(p.Tables) != 3 || p.Tables[2].Table != "members" {
		t.Fatalf("%v: %s", err, r.stdout)
	}
	b.exec(t, `create table reports (id int primary key, comment_id bigint references comments)`)
	r = b.pipe(t, "subject", "plan", "--config", cfg)
	if r.code != 1 || !strings.Contains(r.stderr, "X_SUBJECT_TABLE_UNDECLARED") || !strings.Contains(r.stderr, "reports") {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if r := b.pipe(t, "subject", "erase", "--config", cfg, "--id", "1"); r.code != 1 || !strings.Contains(r.stderr, "X_SUBJECT_TABLE_UNDECLARED") {
		t.Fatalf("an erase of a refused plan: exit %d\n%s", r.code, r.stderr)
	}
}

func TestSubjectEraseWaitsOrEnqueuesForTheWorker(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, forumDDL)
	cfg := writeConfig(t, forumConfig)
	r := b.pipe(t, "subject", "erase", "--config", cfg, "--id", "1", "--wait", "--json")
	var res subject.EraseResult
	if err := json.Unmarshal([]byte(r.stdout), &res); r.code != 0 || err != nil {
		t.Fatalf("exit %d %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	if res.Tables[1].Table != "comments" || res.Tables[1].Rows != 20 {
		t.Fatalf("%+v", res)
	}
	if n := b.count(t, `select count(*) from members where id = 1 and name = '' and bio is null and email like 'erased-%'`); n != 1 {
		t.Errorf("the member is not anonymized")
	}
	r = b.pipe(t, "subject", "erase", "--config", cfg, "--id", "2", "--json")
	var q struct{ ID string }
	if err := json.Unmarshal([]byte(r.stdout), &q); r.code != 0 || err != nil || q.ID == "" {
		t.Fatalf("exit %d %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	fixtures.StartWorker(t, b.pool, subject.EraseJob())
	if d := fixtures.AwaitSettled(t, b.pool, q.ID); d.State != "done" {
		t.Fatalf("%s %+v", d.State, d.LastError)
	}
	if n := b.count(t, `select count(*) from comments`); n != 0 {
		t.Errorf("%d comments left after both erases", n)
	}
}

func TestSubjectEraseRefusesAKeyWithoutQuotingIt(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, forumDDL)
	cfg := writeConfig(t, forumConfig)
	r := b.pipe(t, "subject", "erase", "--config", cfg, "--id", "ada-secret", "--wait")
	if r.code != 1 || !strings.Contains(r.stderr, "X_JOB_INPUT_INVALID") || strings.Contains(r.stderr, "ada-secret") {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
}

func TestSubjectExportWritesTheIndex(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, forumDDL)
	cfg := writeConfig(t, forumConfig)
	dir := t.TempDir()
	r := b.pipe(t, "subject", "export", "--config", cfg, "--id", "1", "--to", dir, "--format", "csv", "--wait", "--json")
	var res subject.ExportResult
	if err := json.Unmarshal([]byte(r.stdout), &res); r.code != 0 || err != nil {
		t.Fatalf("exit %d %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	raw, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(res.Index)))
	if err != nil {
		t.Fatal(err)
	}
	var idx subject.Index
	if err := json.Unmarshal(raw, &idx); err != nil || len(idx.Tables) != 3 || idx.Format != "csv" {
		t.Fatalf("%v %s", err, raw)
	}
	for _, it := range idx.Tables {
		if it.Table == "members" {
			part, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(it.Parts[0].Key)))
			if strings.Contains(string(part), "ada@example.com") || !strings.HasPrefix(string(part), "id,name,bio\n1,Ada,bio") {
				t.Fatalf("members part:\n%s", part)
			}
		}
		if it.Table == "posts" && (it.Rows != 5 || it.Reason == "") {
			t.Errorf("posts %+v", it)
		}
	}
	if r := b.pipe(t, "subject", "export", "--config", cfg, "--id", "1", "--to", dir, "--format", "parquet"); r.code != 2 {
		t.Errorf("parquet: exit %d", r.code)
	}
}

func TestSubjectProofPassesAndCatchesAMissedColumn(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, forumDDL)
	r := b.pipe(t, "subject", "proof", "--config", writeConfig(t, forumConfig))
	if r.code != 0 || !strings.Contains(r.stdout, "proof of members passed") {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	missed := strings.Replace(forumConfig, `, "bio": null`, "", 1)
	r = b.pipe(t, "subject", "proof", "--config", writeConfig(t, missed), "--json")
	if r.code != 1 || !strings.Contains(r.stderr, "X_SUBJECT_ERASE_INCOMPLETE") || !strings.Contains(r.stderr, "members.bio") {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if n := b.count(t, `select count(*) from members`); n != 2 {
		t.Errorf("the proof left %d members; it must leave the 2 there were", n)
	}
	if r := b.pipe(t, "subject", "plan", "--config", writeConfig(t, `{"root": "members", "tables": {"members": "drop"}}`)); r.code != 1 || !strings.Contains(r.stderr, "X_CONFIG_INVALID") {
		t.Errorf("a bad file: exit %d\n%s", r.code, r.stderr)
	}
}

func (b *bundle) count(t *testing.T, sql string) int {
	t.Helper()
	var n int
	if err := b.pool.QueryRow(t.Context(), sql).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestDemoErasesAMember(t *testing.T) {
	t.Parallel()
	b := setup(t)
	r := b.pipe(t, "demo", "--json")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	var rep struct {
		Subject struct {
			Proof subject.ProofReport `json:"proof"`
			Erase subject.EraseResult `json:"erase"`
		} `json:"subject"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Subject.Proof.Searched != 4 || len(rep.Subject.Erase.Tables) != 5 {
		t.Fatalf("%+v", rep.Subject)
	}
	if n := b.count(t, `select count(*) from demo_comments where author_id = 7`); n != 0 {
		t.Errorf("%d comments of the erased member", n)
	}
}

func TestSubjectPlanExplains(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, forumDDL)
	r := b.pipe(t, "subject", "plan", "--config", writeConfig(t, forumConfig), "--explain", "1", "--json")
	var p struct {
		Explain []subject.Explained `json:"explain"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &p); r.code != 0 || err != nil || len(p.Explain) < 4 {
		t.Fatalf("exit %d %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	for _, e := range p.Explain {
		if len(e.Scans) == 0 {
			t.Errorf("%s %s: no scan", e.Step, e.Table)
		}
	}
}

// The person's key is taken whole: a value with a comma is one value.
// Their rows go; other people's rows that referenced them are released
// and counted apart, in the result, in `pipe jobs show` and in the line
// the erase prints.
func TestSubjectEraseTakesAKeyWithACommaAndCountsOthersRows(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, `
create table members (email text primary key, invited_by text references members on delete set null);
create table comments (id int primary key, author text not null references members, reply_to int references comments);
insert into members values ('a,b@example.com', null), ('c@example.com', 'a,b@example.com'), ('d@example.com', 'a,b@example.com'), ('e@example.com', 'c@example.com');
insert into comments values (1, 'a,b@example.com', null), (2, 'a,b@example.com', 1), (3, 'a,b@example.com', null),
  (20, 'c@example.com', 1), (21, 'd@example.com', 2), (22, 'c@example.com', 20);`)
	cfg := writeConfig(t, `{"root": "members", "tables": {"members": "delete", "comments": "delete"}}`)

	r := b.pipe(t, "subject", "erase", "--config", cfg, "--id", "a,b@example.com", "--wait")
	wantOK(t, r)
	// c and d were invited by the person (set null by the database); 20 and
	// 21 replied to the person's comments (cleared by the erase). 22 replied
	// to 20, and e was invited by c: neither is touched.
	if !strings.Contains(r.stdout, "comments 3 rows, members 1 row") || !strings.Contains(r.stdout, "other people's rows released (their reference set to null, kept): 4") {
		t.Fatalf("the erase's line:\n%s", r.stdout)
	}
	if n := b.count(t, `select count(*) from members where email = 'a,b@example.com'`); n != 0 {
		t.Fatalf("the person's row is left")
	}
	if n := b.count(t, `select count(*) from members where invited_by is null`) + b.count(t, `select count(*) from members where email = 'e@example.com' and invited_by = 'c@example.com'`); n != 3 {
		t.Fatalf("other people's members: %d of 3 as expected (c and d released, e untouched)", n)
	}
	if n := b.count(t, `select count(*) from comments where id in (20, 21) and reply_to is null`) + b.count(t, `select count(*) from comments where id = 22 and reply_to = 20`); n != 3 {
		t.Fatalf("other people's comments: %d of 3 as expected", n)
	}
	var id string
	if err := b.pool.QueryRow(t.Context(), `select id::text from pipe.jobs`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	shown := b.pipe(t, "jobs", "show", id, "--json")
	wantOK(t, shown)
	res := decodeLoose[struct{ Result subject.EraseResult }](t, shown.stdout).Result
	if res.Released != 4 || res.Cleared != 3 {
		t.Fatalf("the run's result: released %d, cleared %d; want 4 other people's rows released, 3 keys cleared (the person's own reply among them)", res.Released, res.Cleared)
	}
}

// What can be checked before a run is enqueued is checked, and a refusal
// leaves nothing in pipe.jobs: the declaration against the catalog, the
// number of key values, a key value the key's type refuses.
func TestSubjectRefusesBeforeEnqueueing(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, forumDDL)
	cfg := writeConfig(t, forumConfig)
	missing := writeConfig(t, `{"root": "people", "tables": {"people": "delete"}}`)
	for _, tc := range []struct {
		args []string
		code string
	}{
		{[]string{"erase", "--config", cfg, "--id", "ada-secret"}, "X_JOB_INPUT_INVALID"},
		{[]string{"erase", "--config", cfg, "--id", "1,2"}, "X_JOB_INPUT_INVALID"},
		{[]string{"erase", "--config", cfg, "--id", "1", "--id", "2"}, "X_JOB_INPUT_INVALID"},
		{[]string{"erase", "--config", missing, "--id", "1"}, "X_SUBJECT_TREATMENT_INVALID"},
		{[]string{"export", "--config", cfg, "--id", "ada-secret", "--to", t.TempDir()}, "X_JOB_INPUT_INVALID"},
		{[]string{"export", "--config", missing, "--id", "1", "--to", t.TempDir()}, "X_SUBJECT_TREATMENT_INVALID"},
	} {
		r := b.pipe(t, append([]string{"subject"}, tc.args...)...)
		wantError(t, r, 1, tc.code)
		if strings.Contains(r.stderr, "ada-secret") {
			t.Fatalf("the refusal quotes the key:\n%s", r.stderr)
		}
	}
	if n := b.count(t, `select count(*) from pipe.jobs`); n != 0 {
		t.Fatalf("%d runs left behind by refused requests", n)
	}
}

// A file with a fault of its own and a loop no key can break is refused the
// same way by plan, erase and export: the declaration's faults first, as
// X_SUBJECT_TREATMENT_INVALID naming the loop among them, and nothing is
// enqueued. A loop alone is X_SUBJECT_CYCLE for all three.
func TestSubjectCommandsRefuseAFaultyFileTheSameWay(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.exec(t, `
create table members (id bigint primary key);
create table teams (id bigint primary key, owner_id bigint not null references members, lead_id bigint not null);
create table seats (id bigint primary key, team_id bigint not null references teams);
alter table teams add foreign key (lead_id) references seats deferrable initially deferred;
create index on teams (owner_id); create index on teams (lead_id); create index on seats (team_id);`)
	faulty := writeConfig(t, `{"root": "members", "tables": {"members": "delete", "teams": "delete", "seats": "delete", "nowhere": {"anonymize": {"nope": null}}}}`)
	loop := writeConfig(t, `{"root": "members", "tables": {"members": "delete", "teams": "delete", "seats": "delete"}}`)
	for file, code := range map[string]string{faulty: "X_SUBJECT_TREATMENT_INVALID", loop: "X_SUBJECT_CYCLE"} {
		for _, args := range [][]string{
			{"plan", "--config", file},
			{"erase", "--config", file, "--id", "1"},
			{"export", "--config", file, "--id", "1", "--to", t.TempDir()},
		} {
			r := b.pipe(t, append([]string{"subject"}, args...)...)
			wantError(t, r, 1, code)
			if !strings.Contains(r.stderr, "the loop") {
				t.Fatalf("subject %s does not name the loop:\n%s", args[0], r.stderr)
			}
		}
	}
	if n := b.count(t, `select count(*) from pipe.jobs`); n != 0 {
		t.Fatalf("%d runs left behind by refused requests", n)
	}
}
