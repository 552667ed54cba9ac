package pipeline

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// tracerName names pipe's tracer.
const tracerName = "github.com/pipekit/pipe/pipeline"

// traceParent answers the W3C traceparent of ctx's span, or nil.
func traceParent(ctx context.Context) *string {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return nil
	}
	carrier := propagation.MapCarrier{}
	propagation.TraceContext{}.Inject(ctx, carrier)
	tp := carrier.Get("traceparent")
	if tp == "" {
		return nil
	}
	return &tp
}

// startJobSpan starts a run's span as a child of the span that enqueued it
// (when the enqueue carried one) and puts it in ctx.
func (w *Worker) startJobSpan(ctx context.Context, row *claimed, spec *jobSpec) (context.Context, trace.Span) {
	if row.traceParent != nil {
		carrier := propagation.MapCarrier{"traceparent": *row.traceParent}
		ctx = propagation.TraceContext{}.Extract(ctx, carrier)
	}
	ctx, span := w.tracer.Start(ctx, spec.spanName, consumerSpan)
	if span.IsRecording() { // a tracer that records nothing is not handed attributes to drop
		span.SetAttributes(
			attribute.String("pipe.job.name", row.name),
			attribute.String("pipe.job.id", row.id.String()),
			attribute.String("pipe.job.queue", row.queue),
			attribute.Int("pipe.job.attempt", row.attempt),
		)
	}
	return ctx, span
}

// consumerSpan is the option every run's span starts with, made once.
var consumerSpan = trace.WithSpanKind(trace.SpanKindConsumer)

// startStepSpan starts a step's span under its run's span.
func (rs *runState) startStepSpan(ctx context.Context, name string) (context.Context, trace.Span) {
	ctx, span := rs.w.tracer.Start(ctx, "pipe.step "+name)
	if span.IsRecording() {
		span.SetAttributes(attribute.String("pipe.step.name", name))
	}
	return ctx, span
}

// endSpan records err (if any) and ends span.
func endSpan(span trace.Span, err error) {
	if err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, "")
	}
	span.End()
}
