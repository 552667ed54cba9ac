package subject_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/subject"
)

// TestMain doubles as the kill test's worker process: re-executed with
// fixtures.StartChild, the test binary works erases until SIGKILLed.
func TestMain(m *testing.M) {
	fixtures.ChildMain(map[string]fixtures.ChildFunc{"erase": func(ctx context.Context, pool *pgxpool.Pool) error {
		return fixtures.WorkUntilKilled(ctx, pool, eraseJob(forum(), 3))
	}})
	os.Exit(m.Run())
}

// forumState is what an erase leaves of the forum: every row, as text.
func forumState(ctx context.Context, pool *pgxpool.Pool) (any, error) {
	var out []string
	for _, table := range []string{"members", "posts", "comments", "likes"} {
		var rows []string
		err := pool.QueryRow(ctx, `select coalesce(array_agg(t::text order by t::text), '{}') from `+table+` t`).Scan(&rows)
		if err != nil {
			return nil, err
		}
		out = append(out, table+": "+strings.Join(rows, " "))
	}
	return out, nil
}

// Killed after each of its steps — the plan, every clear, every page, the
// check, the root — an erase resumes at its page and leaves exactly what a
// clean run leaves, each step's writes made once.
func TestCrashAtEveryBoundaryLeavesTheCleanRunsTables(t *testing.T) {
	pool := setup(t, forumDDL)
	reset := func(ctx context.Context) error {
		_, err := pool.Exec(ctx, `truncate members, posts, comments, likes;`+forumRows)
		return err
	}
	fixtures.MustCrashProof(t, pool, eraseJob(forum(), 7), eraseIn{Member: 1}, fixtures.CrashProofOptions{
		Reset:   reset,
		Effects: func(ctx context.Context) (any, error) { return forumState(ctx, pool) },
		Timeout: 60 * time.Second,
	})
}

// A worker killed mid-erase (SIGKILL, whatever it was doing) leaves a run
// that another worker finishes at the page it stopped on: the person's
// rows all gone, the bystander's all there.
func TestSIGKILLMidEraseResumes(t *testing.T) {
	ctx := context.Background()
	url := fixtures.DBURL(t)
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	exec(t, pool, forumDDL+`
		insert into members values (1, 'a@x', 'A', null), (2, 'b@x', 'B', null);
		insert into posts select i, 1 + i % 2, 'p' from generate_series(1, 100) i;
		insert into comments select i, 1 + i % 2, 1 + i % 100, null, 'c' from generate_series(1, 3000) i;
		insert into likes select 1 + i % 2, i from generate_series(1, 3000) i;`)
	bystander := count(t, pool, `select count(*) from comments where author_id = 2`)
	job := eraseJob(forum(), 3)
	res, err := job.Enqueue(ctx, pool, eraseIn{Member: 1})
	if err != nil {
		t.Fatal(err)
	}
	child := fixtures.StartChild(t, url, "erase")
	awaitSteps(t, pool, res.ID, "/page-", 40)
	child.Kill(t)
	fixtures.StartWorker(t, pool, job)
	d := fixtures.AwaitSettled(t, pool, res.ID)
	if d.State != "done" || d.Attempt < 2 {
		t.Fatalf("%s on attempt %d: %+v; want done after the killed attempt", d.State, d.Attempt, d.LastError)
	}
	if n := count(t, pool, `select count(*) from comments where author_id = 1`) + count(t, pool, `select count(*) from members where id = 1`); n != 0 {
		t.Errorf("%d of the person's rows left", n)
	}
	if n := count(t, pool, `select count(*) from comments where author_id = 2`); n != bystander {
		t.Errorf("the bystander has %d comments, had %d", n, bystander)
	}
	if n := count(t, pool, `select count(*) from likes l join comments c on c.id = l.comment_id where c.author_id = 2 and l.member_id = 2`); n != 1500 {
		t.Errorf("the bystander's likes of their own comments: %d, want 1500", n)
	}
}

// awaitSteps waits until the run has committed n steps whose name holds
// part.
func awaitSteps(t *testing.T, pool *pgxpool.Pool, id, part string, n int) {
	t.Helper()
	admin := pipeline.NewAdmin(pool)
	deadline := time.Now().Add(60 * time.Second)
	for {
		d, err := admin.Show(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		got := 0
		for _, s := range d.Steps {
			if strings.Contains(s.Name, part) {
				got++
			}
		}
		if got >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d steps after 60s", got)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// An anonymizing erase killed at every boundary leaves what the clean run
// leaves, as does an export: every part once, each as the index says.
func TestCrashAtEveryBoundaryAnonymizeAndExport(t *testing.T) {
	pool := setup(t, forumDDL)
	d := forum()
	d.Tables["members"] = subject.Anonymize(map[string]any{"email": subject.SQL("'erased-' || id || '@x.invalid'"), "name": "", "bio": nil})
	reset := func(ctx context.Context) error {
		_, err := pool.Exec(ctx, `truncate members, posts, comments, likes;`+forumRows)
		return err
	}
	fixtures.MustCrashProof(t, pool, eraseJob(d, 9), eraseIn{Member: 1}, fixtures.CrashProofOptions{
		Reset:   reset,
		Effects: func(ctx context.Context) (any, error) { return forumState(ctx, pool) },
		Timeout: 60 * time.Second,
	})
	if err := reset(context.Background()); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bucket := "file://" + dir
	fixtures.MustCrashProof(t, pool, exportJob(d, 9), exportIn{Member: 1, Bucket: bucket}, fixtures.CrashProofOptions{
		Reset: func(ctx context.Context) error { return os.RemoveAll(filepath.Join(dir, "people")) },
		Effects: func(ctx context.Context) (any, error) {
			return exportedParts(ctx, bucket)
		},
		Timeout: 60 * time.Second,
	})
}

// exportedParts answers every stored object of the one export under the
// bucket, checked against its index, named relative to the run.
func exportedParts(ctx context.Context, bucket string) ([]string, error) {
	b, err := blob.Open(ctx, bucket)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	objs, err := b.List(ctx, "people/")
	if err != nil {
		return nil, err
	}
	var index string
	for _, o := range objs {
		if strings.HasSuffix(o.Key, "/"+subject.IndexName) {
			index = o.Key
		}
	}
	if index == "" {
		return nil, fmt.Errorf("no index among %d objects", len(objs))
	}
	idx, err := subject.ReadIndex(ctx, b, index)
	if err != nil {
		return nil, err
	}
	dir := strings.TrimSuffix(index, subject.IndexName)
	var out []string
	parts := 0
	for _, it := range idx.Tables {
		for _, p := range it.Parts {
			a, err := b.Stat(ctx, p.Key)
			if err != nil || a.Size != p.Bytes {
				return nil, fmt.Errorf("part %s: %v, or not the index's size", p.Key, err)
			}
			out = append(out, fmt.Sprintf("%s %d %s", strings.TrimPrefix(p.Key, dir), p.Rows, p.SHA256))
			parts++
		}
	}
	if len(objs) != parts+1 {
		return nil, fmt.Errorf("%d objects stored for %d parts and the index", len(objs), parts)
	}
	return out, nil
}

// PostgreSQL restarted mid-erase costs nothing: the worker rides it out and
// the run ends done on its first attempt, the person's rows all gone, the
// bystander's all there.
func TestARestartMidEraseCostsNothing(t *testing.T) {
	ctx := context.Background()
	srv := fixtures.RestartableServer(t)
	pool := srv.DB(t)
	exec(t, pool, forumDDL+`
		insert into members values (1, 'a@x', 'A', null), (2, 'b@x', 'B', null);
		insert into posts select i, 1 + i % 2, 'p' from generate_series(1, 100) i;
		insert into comments select i, 1 + i % 2, 1 + i % 100, null, 'c' from generate_series(1, 3000) i;
		insert into likes select 1 + i % 2, i from generate_series(1, 3000) i;`)
	job := eraseJob(forum(), 3)
	res, err := job.Enqueue(ctx, pool, eraseIn{Member: 1})
	if err != nil {
		t.Fatal(err)
	}
	fixtures.StartWorker(t, pool, job)
	awaitSteps(t, pool, res.ID, "/page-", 40)
	srv.Restart(t)
	var d *pipeline.RunDetail
	deadline := time.Now().Add(2 * time.Minute)
	for d == nil || d.State == "running" || d.State == "ready" {
		if time.Now().After(deadline) {
			t.Fatal("the erase did not settle within 2 minutes of the restart")
		}
		time.Sleep(20 * time.Millisecond)
		d, _ = pipeline.NewAdmin(pool).Show(ctx, res.ID) // the pool may lend a connection the restart ended
	}
	if d.State != "done" || d.Attempt != 1 {
		t.Fatalf("%s on attempt %d: %+v; want done on the first attempt", d.State, d.Attempt, d.LastError)
	}
	if n := count(t, pool, `select count(*) from comments where author_id = 1`) + count(t, pool, `select count(*) from members where id = 1`); n != 0 {
		t.Errorf("%d of the person's rows left", n)
	}
	if n := count(t, pool, `select count(*) from comments where author_id = 2`); n != 1500 {
		t.Errorf("the bystander has %d comments, want 1500", n)
	}
}
