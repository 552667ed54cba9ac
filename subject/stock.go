package subject

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/pipeline"
)

// The durable names of the stock jobs `pipe subject erase` and `pipe
// subject export` enqueue and `pipe worker` runs.
const (
	EraseJobName  = "pipe.subject.erase"
	ExportJobName = "pipe.subject.export"
)

// Request is the input of the stock jobs: the whole declaration (so that
// any worker can run it), the person's key as text, and for an export
// where and how it goes.
type Request struct {
	Subject Declaration `json:"subject"`
	// Key is the person's key, one value per key column, as text.
	Key []string `json:"key"`
	// To is an export's destination: s3://bucket/prefix, gs://,
	// azblob://, mem://, file:///dir or a local directory.
	To string `json:"to,omitempty"`
	// Format is an export's format: ndjson (default) or csv.
	Format exportrows.Format `json:"format,omitempty"`
	// PageRows is the page size; 0: the default, 1,000.
	PageRows int `json:"pageRows,omitempty"`
}

// stockOptions answers the stock jobs' options: the pipe queue, 5 attempts.
func stockOptions[Out any]() pipeline.JobOptions[Request, Out] {
	return pipeline.JobOptions[Request, Out]{Queue: "pipe", Retry: &pipeline.Retry{Attempts: 5}}
}

// EraseJob answers the stock erase job, pipe.subject.erase. A worker
// cannot know the declarations its runs will carry, so it checks none at
// start: each run plans its own and refuses it as [NewPlan] does.
func EraseJob() *pipeline.Job[Request, EraseResult] {
	return pipeline.MustJob(EraseJobName, Request.key, func(ctx context.Context, r *pipeline.Run[Request]) (EraseResult, error) {
		if err := r.Input.Check(); err != nil {
			return EraseResult{}, err
		}
		ex := &eraser{decl: r.Input.Subject, key: r.Input.Key, limit: r.Input.pageRows(), steps: jobSteps{}}
		return ex.erase(ctx)
	}, stockOptions[EraseResult]())
}

// ExportJob answers the stock export job, pipe.subject.export.
func ExportJob() *pipeline.Job[Request, ExportResult] { return ExportJobFromReplica(nil) }

// ExportJobFromReplica answers pipe.subject.export reading every page's
// rows on replica, a pool on a hot standby of the job's database (`pipe
// worker --replica-url`): see [ExportOptions].Replica for what the export
// then holds. Nil is [ExportJob].
func ExportJobFromReplica(replica *pgxpool.Pool) *pipeline.Job[Request, ExportResult] {
	return pipeline.MustJob(ExportJobName, Request.key, func(ctx context.Context, r *pipeline.Run[Request]) (ExportResult, error) {
		if err := r.Input.CheckExport(); err != nil {
			return ExportResult{}, err
		}
		sink, _ := exportrows.SinkOf(r.Input.To) // Check refused a bad one
		format := r.Input.Format
		if format == "" {
			format = exportrows.NDJSON
		}
		return exportWith(ctx, exportRun{decl: r.Input.Subject, key: r.Input.Key, sink: sink, format: format,
			compression: blob.CompressionNone, limit: r.Input.pageRows(), runID: r.RunID, replica: replica})
	}, stockOptions[ExportResult]())
}

// Check refuses a request an erase cannot run: a declaration of the wrong
// shape, no key, a negative page size.
func (in Request) Check() error { return in.check(nil) }

// CheckExport refuses a request an export cannot run: what Check refuses,
// a destination that does not parse or could leave its bucket, a format
// other than ndjson and csv.
func (in Request) CheckExport() error {
	var faults []string
	if in.Format != "" && in.Format != exportrows.NDJSON && in.Format != exportrows.CSV {
		faults = append(faults, "format "+string(in.Format)+" is not ndjson or csv")
	}
	s, err := exportrows.SinkOf(in.To)
	if err == nil {
		_, err = runDir(s.Prefix, "run")
	}
	if err != nil {
		return err
	}
	return in.check(faults)
}

func (in Request) check(faults []string) error {
	faults = append(faults, in.Subject.shapeFaults()...)
	if len(in.Key) == 0 {
		faults = append(faults, "no key is given")
	}
	if in.PageRows < 0 || in.PageRows > MaxPageRows {
		faults = append(faults, "the page size is not from 0 (the default) to 1,000,000")
	}
	if len(faults) == 0 {
		return nil
	}
	return errcode.New(errcode.JobInputInvalid, "subject: %s", strings.Join(faults, "; ")).
		WithFix("correct the request: " + strings.Join(faults, "; "))
}

func (in Request) pageRows() int {
	if in.PageRows > 0 {
		return in.PageRows
	}
	return DefaultPageRows
}

// key is the run's idempotency key: the root, the person's key, and a
// digest of the whole request, so that two different requests never
// dedupe while one is live.
func (in Request) key() string {
	raw, _ := json.Marshal(in)
	sum := sha256.Sum256(raw)
	return in.Subject.Root + ":" + strings.Join(in.Key, "/") + " " + hex.EncodeToString(sum[:6])
}
