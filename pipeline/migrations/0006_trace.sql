-- The W3C traceparent of the span that enqueued a run, so the run's spans
-- link to the trace that asked for it.
alter table pipe.jobs add column trace_parent text;
