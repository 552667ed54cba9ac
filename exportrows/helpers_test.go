package exportrows_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/pipeline"
)

// exportIn is the input of the test exports: every choice in the input.
type exportIn struct {
	Bucket      string            `json:"bucket"`
	Prefix      string            `json:"prefix"`
	Table       string            `json:"table,omitempty"`
	Query       string            `json:"query,omitempty"`
	Args        []any             `json:"args,omitempty"`
	Key         []string          `json:"key,omitempty"`
	Columns     []string          `json:"columns,omitempty"`
	Where       string            `json:"where,omitempty"`
	Format      exportrows.Format `json:"format,omitempty"`
	Compression string            `json:"compression,omitempty"`
	PageRows    int               `json:"pageRows,omitempty"`
	Order       exportrows.Order  `json:"order,omitempty"`
	Run         string            `json:"run"`
	Parallel    int               `json:"parallel,omitempty"`
	Range       *exportrows.Range `json:"range,omitempty"`
}

// exportKey is the test exports' idempotency key.
func exportKey(in exportIn) string { return in.Run }

// options declares an export of exportIn.
func options() exportrows.Options[exportIn] {
	return exportrows.Options[exportIn]{
		Name: "test.export",
		Source: func(in exportIn) exportrows.Source {
			s := exportrows.Source{Table: pg.Relation{Name: in.Table}, Query: in.Query, Args: in.Args, Key: in.Key, Columns: in.Columns, Where: in.Where, Order: in.Order}
			if in.Query != "" {
				s.Name = "q"
			}
			return s
		},
		Sink: func(in exportIn) exportrows.Sink { return exportrows.Sink{Bucket: in.Bucket, Prefix: in.Prefix} },
		SettingsOf: func(in exportIn) exportrows.Settings {
			return exportrows.Settings{Format: in.Format, Compression: blob.Compression(in.Compression), PageRows: in.PageRows}
		},
		Job: pipeline.JobOptions[exportIn, exportrows.Result]{Retry: &pipeline.Retry{Attempts: 3, Delay: 10 * time.Millisecond}},
	}
}

// bundle is one test's database and bucket.
type bundle struct {
	pool   *pgxpool.Pool
	bucket string // mem://<test>
}

func setup(t testing.TB, ddl string) *bundle {
	t.Helper()
	pool := fixtures.DB(t)
	if ddl != "" {
		if _, err := pool.Exec(context.Background(), ddl); err != nil {
			t.Fatal(err)
		}
	}
	return &bundle{pool: pool, bucket: "file://" + t.TempDir()}
}

// in answers an input exporting table to the bundle's bucket.
func (b *bundle) in(t testing.TB, table string) exportIn {
	return exportIn{Bucket: b.bucket, Prefix: "exports", Table: table, Run: t.Name()}
}

// export runs in through a job declared by o and answers its settled run,
// failing the test unless it is done.
func (b *bundle) export(t testing.TB, o exportrows.Options[exportIn], in exportIn) exportrows.Result {
	t.Helper()
	d, res := run(t, b.pool, exportrows.MustNew(exportKey, o), in)
	if d.State != "done" {
		t.Fatalf("export %s: %s", d.State, lastError(d))
	}
	return res
}

// run enqueues in, works it with a worker until it settles and answers the
// run and its result.
func run[In any](t testing.TB, pool *pgxpool.Pool, job *pipeline.Job[In, exportrows.Result], in In) (*pipeline.RunDetail, exportrows.Result) {
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

func lastError(d *pipeline.RunDetail) string {
	if d.LastError == nil {
		return "no error"
	}
	return d.LastError.Code + ": " + d.LastError.Message
}

func lastCode(d *pipeline.RunDetail) string {
	if d.LastError == nil {
		return ""
	}
	return d.LastError.Code
}
