package subject

import (
	"context"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/blob"
	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/pipeline"
)

// ExportOptions declare an export job: everything held of one person,
// every reached table whatever its treatment (a retained row is still the
// person's), one object per page per table and an index.json last. Each
// field's comment gives its default; a fault is refused by [NewExport]
// with X_JOB_DECLARATION_INVALID.
type ExportOptions[In any] struct {
	// Name is the job's durable name. Required.
	Name string
	// Subject is the declaration. Required; checked as [EraseOptions]
	// says. Its Sealed columns are never exported.
	Subject Declaration
	// Person answers the person's key from the run's input. Required.
	Person func(In) Key
	// Sink answers where a run writes: <Prefix>/<runId>/ in Bucket.
	// Required.
	Sink func(In) exportrows.Sink
	// Replica is a pool on a hot standby of the job's database: each
	// page's rows are read there, in a read-only transaction of its own,
	// while the plan, the checkpoints and the run stay on the job's
	// database. The standby serves what it has replayed: a row the person
	// gained on the primary that the standby has not yet replayed is not
	// in the export, so an export answering a request should read a
	// standby known to be caught up (or the primary). A page recovery
	// cancels fails the attempt with X_REPLICA_CONFLICT and is retried
	// (hot_standby_feedback = on on the standby prevents it). Nil, the
	// default: rows are read on the job's database.
	Replica *pgxpool.Pool
	// Key answers a run's idempotency key. Default: the job's name, the
	// person's key, the sink and the format FormatOf answers. An export's
	// key is intrinsic: those are all of its input a run reads, so two
	// exports of one person to one place in one format are one while one
	// is live.
	Key func(In) string
	// Format is ndjson or csv. Default ndjson.
	Format exportrows.Format
	// FormatOf answers a run's format instead (the CLI's --format); ""
	// keeps Format. Default nil.
	FormatOf func(In) exportrows.Format
	// Compression is none, gzip or zstd, for every object. Default none.
	Compression blob.Compression
	// PageRows is how many rows one object holds at most: the unit of a
	// step and its checkpoint. Default 1,000.
	PageRows int
	// Job are the job options. Verify, when set, runs after the
	// declaration's own check.
	Job pipeline.JobOptions[In, ExportResult]
}

// ExportResult is what an export run answers.
type ExportResult struct {
	Root string `json:"root"`
	// Tables are the rows written per table.
	Tables []TableResult `json:"tables"`
	// Objects are the declared objects copied, per entry.
	Objects []ObjectsCopied `json:"objects,omitempty"`
	// Targets are the declared targets exported, per target.
	Targets []TargetExported `json:"targets,omitempty"`
	// Bucket is the sink's URL (without credentials), Index the key of the
	// run's index.json in it.
	Bucket string `json:"bucket"`
	Index  string `json:"index"`
}

// NewExport declares an export job.
func NewExport[In any](o ExportOptions[In]) (*pipeline.Job[In, ExportResult], error) {
	var faults []string
	add := func(cond bool, fault string) {
		if cond {
			faults = append(faults, fault)
		}
	}
	add(strings.TrimSpace(o.Name) == "", "Name is empty")
	add(o.Person == nil, "Person (the person's key from the input) is nil")
	add(o.Sink == nil, "Sink (where the objects go) is nil")
	add(o.PageRows < 0 || o.PageRows > MaxPageRows, "PageRows is not from 0 (the default) to 1,000,000")
	add(o.Format != "" && o.Format != exportrows.NDJSON && o.Format != exportrows.CSV, "Format "+string(o.Format)+" is not ndjson or csv")
	if c, err := blob.ParseCompression(string(o.Compression)); o.Compression != "" && (err != nil || c == blob.CompressionAuto) {
		faults = append(faults, "Compression "+string(o.Compression)+" is not none, gzip or zstd")
	}
	faults = append(faults, o.Subject.shapeFaults()...)
	if len(faults) > 0 {
		return nil, errcode.New(errcode.JobDeclarationInvalid, "export %s: %s", o.Name, strings.Join(faults, "; ")).
			WithFix("correct the export's declaration: " + strings.Join(faults, "; "))
	}
	if o.PageRows == 0 {
		o.PageRows = DefaultPageRows
	}
	if o.Format == "" {
		o.Format = exportrows.NDJSON
	}
	if o.Compression == "" {
		o.Compression = blob.CompressionNone
	}
	key := o.Key
	if key == nil {
		key = o.intrinsicKey
	}
	o.Job.Verify = verifyWith(o.Subject, o.Job.Verify)
	return pipeline.NewJob(o.Name, key, func(ctx context.Context, r *pipeline.Run[In]) (ExportResult, error) {
		return runExport(ctx, o, r)
	}, o.Job)
}

// intrinsicKey is the default key: all of the input a run reads.
func (o ExportOptions[In]) intrinsicKey(in In) string {
	s := o.Sink(in)
	k := o.Name + ":" + keyLabel(o.Person(in)) + " -> " + s.Bucket + "/" + s.Prefix
	if o.FormatOf != nil && o.FormatOf(in) != "" {
		k += " as " + string(o.FormatOf(in))
	}
	return k
}

// MustExport is [NewExport] that panics on a bad declaration.
func MustExport[In any](o ExportOptions[In]) *pipeline.Job[In, ExportResult] {
	j, err := NewExport(o)
	if err != nil {
		panic(err)
	}
	return j
}

// runExport resolves the run's settings and exports.
func runExport[In any](ctx context.Context, o ExportOptions[In], r *pipeline.Run[In]) (ExportResult, error) {
	k, err := keyTexts(o.Person(r.Input))
	if err != nil {
		return ExportResult{}, err
	}
	format := o.Format
	if o.FormatOf != nil && o.FormatOf(r.Input) != "" {
		format = o.FormatOf(r.Input)
	}
	return exportWith(ctx, exportRun{decl: o.Subject, key: k, sink: o.Sink(r.Input), format: format,
		compression: o.Compression, limit: o.PageRows, runID: r.RunID, replica: o.Replica})
}

// exportRun is one export run's settings.
type exportRun struct {
	decl        Declaration
	key         []string
	sink        exportrows.Sink
	format      exportrows.Format
	compression blob.Compression
	limit       int
	runID       string
	replica     *pgxpool.Pool // nil: read on the job's database
}

// exportWith opens the run's sink and exports.
func exportWith(ctx context.Context, r exportRun) (ExportResult, error) {
	if r.format != exportrows.NDJSON && r.format != exportrows.CSV {
		return ExportResult{}, errcode.New(errcode.JobInputInvalid, "subject export: format %s is not ndjson or csv", r.format).
			WithFix("choose ndjson or csv")
	}
	dir, err := runDir(r.sink.Prefix, r.runID)
	if err != nil {
		return ExportResult{}, err
	}
	b, err := blob.Open(ctx, r.sink.Bucket)
	if err != nil {
		return ExportResult{}, err
	}
	defer b.Close()
	// A killed attempt can have left a part half-written (a file bucket's
	// part-00003.ndjson.<hex>.tmp): the run's directory holds what the
	// index names, and nothing else.
	if _, err := b.SweepTemporary(ctx, dir+"/"); err != nil {
		return ExportResult{}, err
	}
	ex := &exporter{eraser: eraser{decl: r.decl, key: r.key, limit: r.limit, steps: jobSteps{}},
		bucket: b, dir: dir, format: r.format, compression: r.compression, runID: r.runID, replica: r.replica}
	return ex.export(ctx)
}

// runDir joins the prefix and the run's directory, refusing a prefix that
// is absolute, climbs, or has an empty segment.
func runDir(prefix, run string) (string, error) {
	if prefix != "" {
		if err := blob.ValidateKey(strings.TrimSuffix(prefix, "/")); err != nil {
			return "", err
		}
	}
	return blob.JoinKey(strings.TrimSuffix(prefix, "/"), run)
}
