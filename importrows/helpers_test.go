package importrows_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/importrows"
	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/pipeline"
)

// fileIn is the input of the test imports: which file, and a run label that
// keys the run.
type fileIn struct {
	Bucket string `json:"bucket"`
	Key    string `json:"key"`
	Run    string `json:"run"`
}

func fileKey(in fileIn) string { return in.Run + ":" + in.Key }

// bundle is one test's database, bucket directory and table.
type bundle struct {
	pool *pgxpool.Pool
	dir  string
}

func setup(t testing.TB, ddl string) *bundle {
	t.Helper()
	pool := fixtures.DB(t)
	if ddl != "" {
		if _, err := pool.Exec(context.Background(), ddl); err != nil {
			t.Fatal(err)
		}
	}
	return &bundle{pool: pool, dir: t.TempDir()}
}

// put writes a file into the bundle's bucket directory.
func (b *bundle) put(t testing.TB, key string, data []byte) fileIn {
	t.Helper()
	p := filepath.Join(b.dir, filepath.FromSlash(key))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return fileIn{Bucket: "file://" + b.dir, Key: key, Run: t.Name()}
}

// tableOptions declares an import of fileIn into table with key.
func tableOptions(table string, key ...string) importrows.Options[fileIn] {
	return importrows.Options[fileIn]{
		Name:   "test.import",
		Source: func(in fileIn) importrows.Source { return importrows.Source{Bucket: in.Bucket, Key: in.Key} },
		Into:   func(fileIn) importrows.Table { return importrows.Table{Relation: pg.Relation{Name: table}, Key: key} },
		Errors: func(in fileIn) importrows.Sink { return importrows.Sink{Bucket: in.Bucket, Prefix: "errors"} },
		Job:    pipeline.JobOptions[fileIn, importrows.Result]{Retry: &pipeline.Retry{Attempts: 3, Delay: 10 * time.Millisecond}},
	}
}

// run enqueues in, works it with a worker until it settles and answers the
// run and its result.
func run[In any](t testing.TB, pool *pgxpool.Pool, job *pipeline.Job[In, importrows.Result], in In) (*pipeline.RunDetail, importrows.Result) {
	t.Helper()
	return fixtures.Run(t, pool, job, in)
}

func startWorker(t testing.TB, pool *pgxpool.Pool, jobs ...pipeline.Registrable) {
	t.Helper()
	fixtures.StartWorker(t, pool, jobs...)
}

func awaitSettled(t testing.TB, pool *pgxpool.Pool, id string) *pipeline.RunDetail {
	t.Helper()
	return fixtures.AwaitSettled(t, pool, id)
}

// lastCode answers the code of the run's last error.
func lastCode(d *pipeline.RunDetail) string {
	if d.LastError == nil {
		return ""
	}
	return string(d.LastError.Code)
}
