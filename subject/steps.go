package subject

import (
	"context"

	"github.com/jackc/pgx/v5"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/exportrows"
	"github.com/pipekit/pipe/pipeline"
)

// pageOut is what one step of an erase or export answers, and keeps as its
// checkpoint: counts, never rows.
type pageOut struct {
	// Found is how many rows the page found (for an anonymize: how many
	// still needed it), Changed how many it wrote.
	Found   int64 `json:"found"`
	Changed int64 `json:"changed"`
	// Released counts, for an erase's page, other people's rows it set
	// null (itself, or the database on delete): not the person's.
	Released int64 `json:"released,omitempty"`
	// Left counts, for a check, the person's rows still to treat; Blocked
	// says the root's delete was blocked by a row written meanwhile.
	Left    int64 `json:"left,omitempty"`
	Blocked bool  `json:"blocked,omitempty"`
	// After is, for an export page, the row identity of its last row (as
	// text); Part the object it wrote.
	After []string         `json:"after,omitempty"`
	Part  *exportrows.Part `json:"part,omitempty"`
}

// steps runs the steps of an erase or export: as steps of a job (each
// stored in the run's journal), or inside one transaction (the proof).
type steps interface {
	// tx runs fn in a transaction whose commit also records the step.
	tx(ctx context.Context, name string, fn func(ctx context.Context, tx pgx.Tx) (pageOut, error)) (pageOut, error)
	// plain runs fn, which writes outside the database, as one step.
	plain(ctx context.Context, name string, fn func(ctx context.Context) (pageOut, error)) (pageOut, error)
	// plan runs fn once and keeps its plan.
	plan(ctx context.Context, fn func(ctx context.Context, tx pgx.Tx) (*Plan, error)) (*Plan, error)
	// progress reports how far the run has come.
	progress(ctx context.Context, done int64, note string) error
}

// jobSteps are the steps of a job run.
type jobSteps struct{}

// Whatever a job's step fails with is redacted before the job core stores
// it: a server's message can quote the person's values.
func (jobSteps) tx(ctx context.Context, name string, fn func(ctx context.Context, tx pgx.Tx) (pageOut, error)) (pageOut, error) {
	return pipeline.StepTx(ctx, name, func(ctx context.Context, tx pgx.Tx) (pageOut, error) {
		out, err := fn(ctx, tx)
		return out, errcode.Redact(ctx, err, "subject: "+name)
	})
}

func (jobSteps) plain(ctx context.Context, name string, fn func(ctx context.Context) (pageOut, error)) (pageOut, error) {
	return pipeline.Step(ctx, name, func(ctx context.Context) (pageOut, error) {
		out, err := fn(ctx)
		return out, errcode.Redact(ctx, err, "subject: "+name)
	})
}

func (jobSteps) plan(ctx context.Context, fn func(ctx context.Context, tx pgx.Tx) (*Plan, error)) (*Plan, error) {
	return pipeline.StepTx(ctx, "plan", func(ctx context.Context, tx pgx.Tx) (*Plan, error) {
		p, err := fn(ctx, tx)
		return p, errcode.Redact(ctx, err, "subject: plan")
	})
}

func (jobSteps) progress(ctx context.Context, done int64, note string) error {
	return pipeline.Progress(ctx, done, 0, note)
}

// txSteps run every step inside one transaction, each in a savepoint.
type txSteps struct{ db pgx.Tx }

func (s txSteps) tx(ctx context.Context, _ string, fn func(ctx context.Context, tx pgx.Tx) (pageOut, error)) (pageOut, error) {
	sp, err := s.db.Begin(ctx)
	if err != nil {
		return pageOut{}, err
	}
	out, err := fn(ctx, sp)
	if err != nil {
		_ = sp.Rollback(ctx)
		return out, err
	}
	return out, sp.Commit(ctx)
}

func (s txSteps) plain(ctx context.Context, _ string, fn func(ctx context.Context) (pageOut, error)) (pageOut, error) {
	return fn(ctx)
}

func (s txSteps) plan(ctx context.Context, fn func(ctx context.Context, tx pgx.Tx) (*Plan, error)) (*Plan, error) {
	sp, err := s.db.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer func() { _ = sp.Rollback(ctx) }()
	return fn(ctx, sp)
}

// counted runs st in tx and scans its two counts, inside a span
// "pipe.subject <what>" (with the table and the counts) of the tracer the
// step's span came from: a worker's TracerProvider sees every statement.
func counted(ctx context.Context, tx pgx.Tx, what, table string, key []string, st stmt) (pageOut, error) {
	span := statementSpan(ctx, what, table)
	defer span.End()
	var out pageOut
	err := tx.QueryRow(ctx, st.SQL, args(key, st)...).Scan(&out.Found, &out.Changed, &out.Released)
	span.SetAttributes(attribute.Int64("pipe.subject.found", out.Found), attribute.Int64("pipe.subject.changed", out.Changed))
	return out, statementErr(err, what, table)
}

// statementSpan starts the span of one statement of an erase or export.
func statementSpan(ctx context.Context, what, table string) trace.Span {
	_, span := trace.SpanFromContext(ctx).TracerProvider().Tracer(tracerName).Start(ctx, "pipe.subject "+what,
		trace.WithAttributes(attribute.String("pipe.subject.table", table)))
	return span
}

// tracerName names the statements' tracer.
const tracerName = "github.com/pipekit/pipe/subject"

// args answers a statement's arguments: the key's texts, then its own.
func args(key []string, st stmt) []any {
	out := make([]any, 0, len(key)+len(st.Args))
	for _, k := range key {
		out = append(out, k)
	}
	return append(out, st.Args...)
}

func (txSteps) progress(context.Context, int64, string) error { return nil }
