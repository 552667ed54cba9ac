package subject_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/subject"
)

// targetsDDL adds to the forum: the person's uploads, whose object keys a
// table lists (no prefix builds them), and an audit trail naming who
// acted, with no foreign key (the walk does not reach it).
const targetsDDL = `
create table uploads (id bigint primary key, member_id bigint not null references members, object_key text not null);
create table audit (id bigint primary key, actor_id bigint, action text not null);
`

const targetsRows = `
insert into uploads values (1, 1, 'u/ada-cv.pdf'), (2, 1, 'u/2024/ada.png'), (3, 2, 'u/bob.png');
insert into audit values (1, 1, 'posted'), (2, 2, 'posted'), (3, 1, 'liked');
`

// auditTarget rewrites who acted in the audit trail, keeping the rows,
// through the step's transaction; its export is the person's audit rows.
type auditTarget struct{}

func (auditTarget) Erase(ctx context.Context, p subject.Person) (int64, error) {
	tag, err := p.Tx.Exec(ctx, `update audit set actor_id = null where actor_id = $1`, p.Value("id"))
	return tag.RowsAffected(), err
}

func (auditTarget) Export(ctx context.Context, p subject.Person, out *subject.TargetOut) error {
	rows, err := p.Tx.Query(ctx, `select action from audit where actor_id = $1 order by id`, p.Value("id"))
	if err != nil {
		return err
	}
	var actions []string
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			return err
		}
		actions = append(actions, a)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return out.Write(ctx, "audit.ndjson", func(w io.Writer) error {
		for _, a := range actions {
			if _, err := fmt.Fprintf(w, "{\"action\":%q}\n", a); err != nil {
				return err
			}
		}
		return nil
	})
}

// keptTarget is a retained target: its Erase must never be called.
type keptTarget struct{ erased, exported *atomic.Int64 }

func (k keptTarget) Erase(context.Context, subject.Person) (int64, error) {
	k.erased.Add(1)
	return 0, nil
}

func (k keptTarget) Export(ctx context.Context, _ subject.Person, out *subject.TargetOut) error {
	k.exported.Add(1)
	return out.Write(ctx, "kept.txt", func(w io.Writer) error {
		_, err := io.WriteString(w, "kept\n")
		return err
	})
}

// uploadKeys answers the person's upload keys, read from their rows.
func uploadKeys(ctx context.Context, p subject.Person) ([]string, error) {
	rows, err := p.Tx.Query(ctx, `select object_key from uploads where member_id = $1 order by id`, p.Value("id"))
	if err != nil {
		return nil, err
	}
	var keys []string
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, err
		}
		keys = append(keys, k)
	}
	return keys, rows.Err()
}

// writeFiles writes each named file under dir with its own name as content.
func writeFiles(t testing.TB, dir string, files ...string) {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// targetsForum is the forum with uploads deleted, the audit trail left to
// its target, and three targets: the uploads' objects, the audit trail and
// a retained one.
func targetsForum(uploads string, kept keptTarget) subject.Declaration {
	d := forum()
	d.Tables["uploads"] = subject.Delete()
	d.Targets = []subject.Targets{
		{Name: "uploads", Target: subject.ObjectsOf(uploads, uploadKeys)},
		{Name: "audit", Target: auditTarget{}},
		{Name: "kept", Target: kept, Retain: "the ledger's own rule"},
	}
	return d
}

// A person's data outside the tables is exported and erased with the
// rest: objects a table lists, an audit trail rewritten in the step's
// transaction, and a retained target that is exported and never erased.
func TestTargetsAreExportedAndErasedWithTheRows(t *testing.T) {
	pool := setup(t, forumDDL+targetsDDL+forumRows+targetsRows)
	files := t.TempDir()
	writeFiles(t, files, "u/ada-cv.pdf", "u/2024/ada.png", "u/bob.png")
	kept := keptTarget{erased: &atomic.Int64{}, exported: &atomic.Int64{}}
	d := targetsForum("file://"+files, kept)

	if p := plan(t, pool, d); !strings.Contains(p.String(), "target kept: retain (the ledger's own rule)") || len(p.Targets) != 3 {
		t.Fatalf("the plan does not list the targets:\n%s", p.String())
	}
	out := t.TempDir()
	r, exp := fixtures.Run(t, pool, exportJob(d, 100), exportIn{Member: 1, Bucket: "file://" + out, Format: exportrows.NDJSON})
	if r.State != "done" {
		t.Fatalf("export %s %+v", r.State, r.LastError)
	}
	b, idx := readIndex(t, exp)
	if len(idx.Targets) != 3 || idx.Targets[2].Retain == "" {
		t.Fatalf("index targets %+v; want uploads, audit and the retained kept", idx.Targets)
	}
	var got []string
	for _, k := range idx.Targets[0].Keys {
		got = append(got, readAll(t, b, k))
	}
	sort.Strings(got)
	if !slices.Equal(got, []string{"u/2024/ada.png", "u/ada-cv.pdf"}) {
		t.Fatalf("the export's uploads hold %q; want the person's two", got)
	}
	if audit := readAll(t, b, idx.Targets[1].Keys[0]); audit != "{\"action\":\"posted\"}\n{\"action\":\"liked\"}\n" {
		t.Fatalf("the export's audit.ndjson: %q", audit)
	}

	r, res := fixtures.Run(t, pool, eraseJob(d, 100), eraseIn{Member: 1})
	if r.State != "done" {
		t.Fatalf("erase %s %+v", r.State, r.LastError)
	}
	want := []subject.TargetDone{{Name: "uploads", Erased: 2}, {Name: "audit", Erased: 2}, {Name: "kept", Retained: true}}
	if !slices.Equal(res.Targets, want) {
		t.Fatalf("erase targets %+v; want %+v", res.Targets, want)
	}
	for f, there := range map[string]bool{"u/ada-cv.pdf": false, "u/2024/ada.png": false, "u/bob.png": true} {
		if _, err := os.Stat(filepath.Join(files, filepath.FromSlash(f))); (err == nil) != there {
			t.Errorf("%s: there %v, want %v", f, err == nil, there)
		}
	}
	if n := count(t, pool, `select count(*) from audit where actor_id = 1`); n != 0 {
		t.Errorf("%d audit rows still name the person", n)
	}
	if n := count(t, pool, `select count(*) from audit`); n != 3 {
		t.Errorf("%d audit rows; the target rewrites who acted and keeps all 3", n)
	}
	if kept.erased.Load() != 0 || kept.exported.Load() != 1 {
		t.Errorf("the retained target: erased %d times, exported %d; want 0 and 1", kept.erased.Load(), kept.exported.Load())
	}
}

// An erase with targets killed at every step boundary leaves what the
// clean run leaves: the objects gone, the audit rewritten once.
func TestCrashAtEveryBoundaryWithTargets(t *testing.T) {
	pool := setup(t, forumDDL+targetsDDL)
	files := t.TempDir()
	kept := keptTarget{erased: &atomic.Int64{}, exported: &atomic.Int64{}}
	d := targetsForum("file://"+files, kept)
	reset := func(ctx context.Context) error {
		if err := os.RemoveAll(filepath.Join(files, "u")); err != nil {
			return err
		}
		writeFiles(t, files, "u/ada-cv.pdf", "u/2024/ada.png", "u/bob.png")
		_, err := pool.Exec(ctx, `truncate members, posts, comments, likes, uploads, audit;`+forumRows+targetsRows)
		return err
	}
	fixtures.MustCrashProof(t, pool, eraseJob(d, 9), eraseIn{Member: 1}, fixtures.CrashProofOptions{
		Reset: reset,
		Effects: func(ctx context.Context) (any, error) {
			left, err := filesUnder(files)
			if err != nil {
				return nil, err
			}
			state, err := forumState(ctx, pool)
			return []any{left, state, auditState(ctx, pool)}, err
		},
		Timeout: 60 * time.Second,
	})
	if kept.erased.Load() != 0 {
		t.Fatalf("the retained target was erased %d times", kept.erased.Load())
	}
}

func readAll(t *testing.T, b *blob.Bucket, key string) string {
	t.Helper()
	r, err := b.NewReader(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func filesUnder(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return err
	})
	return out, err
}

func auditState(ctx context.Context, pool *pgxpool.Pool) string {
	var s string
	if err := pool.QueryRow(ctx, `select coalesce(json_agg(a order by id)::text, '') from audit a`).Scan(&s); err != nil {
		return err.Error()
	}
	return s
}

// A declaration's target mistakes are refused at declaration, each named.
func TestTargetMistakesAreRefusedAtDeclaration(t *testing.T) {
	d := forum()
	d.Targets = []subject.Targets{
		{Name: "", Target: auditTarget{}},
		{Name: "a/b", Target: auditTarget{}},
		{Name: "audit", Target: nil},
		{Name: "audit", Target: auditTarget{}},
		{Name: "kept", Target: auditTarget{}, Retain: "  "},
	}
	_, err := subject.NewErase(subject.EraseOptions[eraseIn]{Name: "test.targets", Subject: d,
		Person: func(in eraseIn) subject.Key { return subject.Key{in.Member} }})
	e, ok := errcode.As(err)
	if !ok || e.Code != errcode.JobDeclarationInvalid {
		t.Fatalf("NewErase: %v; want X_JOB_DECLARATION_INVALID", err)
	}
	for _, want := range []string{"targets 0: name is empty", "targets a/b: the name is not one key segment", "targets audit: target is nil", "targets audit: the name is used twice", "targets kept: retain is blank"} {
		if !strings.Contains(e.Message, want) {
			t.Errorf("the refusal does not say %q:\n%s", want, e.Message)
		}
	}
}

// A key the target's keysOf answers that would climb out of the bucket is
// refused before any object is deleted, and the message does not quote it.
func TestAHostileTargetKeyIsRefused(t *testing.T) {
	pool := setup(t, forumDDL+targetsDDL+forumRows+targetsRows+`update uploads set object_key = '../outside' where id = 2;`)
	files := t.TempDir()
	writeFiles(t, files, "u/ada-cv.pdf")
	kept := keptTarget{erased: &atomic.Int64{}, exported: &atomic.Int64{}}
	r, _ := fixtures.Run(t, pool, eraseJob(targetsForum("file://"+files, kept), 100), eraseIn{Member: 1})
	if r.State != "dead" || r.LastError == nil || r.LastError.Code != string(errcode.BlobKeyInvalid) || strings.Contains(r.LastError.Message, "outside") {
		raw, _ := json.Marshal(r.LastError)
		t.Fatalf("erase %s %s; want dead with X_BLOB_KEY_INVALID, the key unquoted", r.State, raw)
	}
	if _, err := os.Stat(filepath.Join(files, "u", "ada-cv.pdf")); err != nil {
		t.Fatalf("the person's other upload was deleted before the refusal: %v", err)
	}
	if n := count(t, pool, `select count(*) from members where id = 1`); n != 1 {
		t.Fatalf("the person's rows were erased though a target was refused")
	}
}
