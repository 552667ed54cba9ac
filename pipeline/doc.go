// Package pipeline is pipe's durable job core on PostgreSQL.
//
// A job is declared once with its name, its idempotency key function and its
// body — all three required arguments, so leaving out the key does not
// compile. It is enqueued through whatever handle the caller holds (a pool,
// a connection or the caller's own pgx.Tx, so a rolled-back transaction
// never queued anything), claimed by a [Worker] with FOR UPDATE SKIP LOCKED,
// and executed step by step: each [Step] runs once ever per run and its
// JSON result is kept in the run's journal, so a retry or a crash replays the
// completed steps from storage and runs only what is left.
//
// # Declaring and enqueueing
//
//	var onboard = pipeline.MustJob("onboard-org",
//		func(in Onboard) string { return "onboard:" + in.OrgID },
//		func(ctx context.Context, run *pipeline.Run[Onboard]) (Summary, error) { ... },
//		pipeline.JobOptions[Onboard]{Retry: &pipeline.Retry{Attempts: 5}})
//
//	res, err := onboard.Enqueue(ctx, tx, Onboard{OrgID: id}) // commits with tx
//
// While a live row (ready, delayed, running, suspended) holds the same name,
// tenant and key, an enqueue answers that row with Deduped set.
//
// # The journal
//
// Every state change of a run appends one event to pipe.events in the same
// statement that made the change: enqueued, claimed, step started, completed
// or failed, attempt failed, dead, interrupted, lease lapsed, requeued,
// rewound, cancelled. The pipe.jobs row is the projection the claim reads.
// [Admin.Show] renders both.
//
// # Steps
//
// [Step] answers the stored JSON form of its result, on the first run too.
// [StepTx] commits its database effect and its completion in one
// transaction: exactly once for database effects. [Once] makes a step
// at-most-once, stopping with X_STEP_OUTCOME_UNKNOWN when a crash leaves its
// outcome unknown.
//
// # Failure
//
// A failed attempt is retried on the job's [Retry] schedule with equal
// jitter; an error whose code is classified terminal (see package errcode)
// stops at once; an exhausted run is dead-lettered with its journal. A job
// timeout cancels the body's context with X_JOB_TIMEOUT before the attempt
// fails; [Worker.Shutdown] cancels held bodies with X_DRAINING and hands
// them back uncounted. Every settle, renewal and step write is fenced on the
// claim, so a worker whose lease lapsed cannot touch the run that replaced it.
package pipeline
