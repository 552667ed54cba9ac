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
//		pipeline.JobOptions[Onboard, Summary]{Retry: &pipeline.Retry{Attempts: 5}})
//
//	res, err := onboard.Enqueue(ctx, tx, Onboard{OrgID: id}) // commits with tx
//
// While a live row (ready, delayed, running, suspended) holds the same name,
// tenant and key, an enqueue answers that row with Deduped set. Every row
// is written by that one enqueue, a task's fire included. An optional
// options struct is a variadic last argument throughout the package; a
// second one is refused, never dropped.
//
// # The journal
//
// Every state change of a run appends one event to its journal in the same
// statement that made the change: enqueued, claimed, step started, completed
// or failed, attempt failed, dead, interrupted, lease lapsed, requeued,
// rewound, cancelled. The transitions every run has (enqueued, and claimed
// and completed for its first eight claims) are appended to the run's own
// row, which those statements write anyway; all other events are rows of
// pipe.run_events. One sequence orders both, and the view pipe.journal
// reads them as one. The run's row is the projection the claim reads.
// [Admin.Show] renders both.
//
// # The job store
//
// Runs live in pipe.runs, partitioned by state: the open runs in
// pipe.runs_open, the only table a claim, an enqueue or a step write
// reads; done and cancelled runs in a partition per UTC day they finished,
// dead and failed ones in a partition per week. A settle moves the run, and
// its journal, to its finish's partition. [Maintain] makes partitions ahead
// and drops whole ones past [Retention] (DETACH ... CONCURRENTLY, never a
// DELETE); [EnsurePartitions] and [MoveLegacyRuns] are its parts a caller
// may want alone. pipe.jobs and pipe.events are views over them. Every
// filter of [Admin.List] reads an index of each partition newest first: the
// finished ones carry one per filter; the open runs the claim's, the
// enqueue's unique index (which leads with the key) and one each for a
// tenant and a concurrency key.
//
// # Steps
//
// [Step] answers the stored JSON form of its result, on the first run too.
// [StepTx] commits its database effect and its completion in one
// transaction: exactly once for database effects. [Once] makes a step
// at-most-once, stopping with X_STEP_OUTCOME_UNKNOWN when a crash leaves its
// outcome unknown. [FencedTx] is a transaction fenced on the claim that
// journals nothing, for bodies whose effects are too many to be steps (a
// consumer's batches); it can store the run's status document.
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
//
// # Time and events
//
// [Sleep] parks a run until a wake time and [WaitForEvent] until a matching
// [PublishEvent] (or a timeout); both persist what they wait for, release
// the worker and spend no attempt — the body returns the error they answer
// and the run resumes in whatever process claims it next. Every instant that
// orders runs comes from the database clock, pipe.now(), which the test kit
// can freeze; [DatabaseClock] lets several processes share it.
//
// # Compensation
//
// A job declaring Compensates runs the steps it may have to undo with
// [StepWithCompensation], whose compensator takes the step's own result
// type. When the run fails for good the compensators run last-in first-out
// after a durable "unwinding" marker; a crash or a failing compensator is
// resumed within [UnwindMargin] extra attempts.
//
// # Coordination
//
// [Concurrency] caps runs fleet-wide or per key through lease rows renewed by
// the heartbeat and freed by TTL; WorkerConfig.RatePerTenant caps starts per
// tenant in one process and [SpendBudget] spends a budget shared by the
// fleet. A paused queue ([Admin.PauseQueue]) is never claimed.
//
// # Schedules
//
// A [Task] is a cron expression in an IANA zone with the entries it enqueues.
// A [Scheduler] leads the fleet through a lease row and fires each occurrence
// once: its watermark and its jobs move in one statement.
//
// # Operating
//
// [Admin] lists, shows, requeues, cancels, promotes and removes runs (one or
// a bounded many), pauses queues and tasks, and reads workers and counters;
// a run's [State] is typed. JobOptions.OnSettled, declared with the job,
// hears how each run ended, with the body's typed result.
// [Maintain] (or [MaintenanceJob] with [MaintenanceTask]) purges finished
// runs past their retention. Workers log stable event names (jobs.*), count
// outcomes per queue ([Worker.Outcomes], served by package pipemetrics) and
// make an OpenTelemetry span per run and per step.
//
// # Migrations
//
// [Migrate] applies the embedded migrations of the pipe schema and records
// each one's checksum; a released migration is frozen, and a database whose
// applied migration differs from the shipped file is refused with
// X_MIGRATION_CHANGED naming the version.
package pipeline
