package consumer

import (
	"context"

	"github.com/pipekit/pipe/pipeline"
)

// Consumer is a declared consumer: the job whose runs follow one key each,
// the arm job that starts the keys that should be running, and the
// supervisor task that enqueues the arm job at every rearm. It is safe for
// concurrent use. Register [Consumer.Jobs] with the workers and
// [Consumer.Supervisor] with the scheduler.
type Consumer[T, C any] struct {
	o          Options[T, C]
	run        *pipeline.Job[Input, Result]
	arm        *pipeline.Job[ArmInput, ArmResult]
	supervisor *pipeline.Task
}

// New declares a consumer. Every fault of the declaration is named in one
// X_CONSUMER_INVALID.
//
// A consumer takes no idempotency key function: its keys are intrinsic. A
// run's input is its key from Keys, and all a run does is follow that key,
// so the run's idempotency key is the key itself (consumer:<name>:<key>,
// one live run per key); the arm job's input is empty, so its key is the
// constant "arm" (one arm live at a time).
func New[T, C any](o Options[T, C]) (*Consumer[T, C], error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	c := &Consumer[T, C]{o: o}
	jo := o.Job
	jo.Concurrency = &pipeline.Concurrency[Input]{Limit: 1, Key: func(in Input) string { return in.Key }, WhenBusy: pipeline.Wait}
	if o.Tenant != nil {
		jo.Tenant = func(in Input) string { return o.Tenant(in.Key) }
	}
	if c.run, err = pipeline.NewJob(o.Name, runKey(o.Name), c.body, jo); err != nil {
		return nil, err
	}
	armOpts := pipeline.JobOptions[ArmInput, ArmResult]{Queue: o.ArmQueue}
	if c.arm, err = pipeline.NewJob(o.Name+".arm", func(ArmInput) string { return "arm" }, c.armBody, armOpts); err != nil {
		return nil, err
	}
	entry := pipeline.Entry(c.arm, func(pipeline.Occurrence) ArmInput { return ArmInput{} })
	if c.supervisor, err = pipeline.NewTask(o.Name+".supervisor", rearmCron(o.Rearm), "UTC", []pipeline.TaskEntry{entry}); err != nil {
		return nil, err
	}
	return c, nil
}

// MustNew is [New] that panics on a bad declaration, for package-level
// variables.
func MustNew[T, C any](o Options[T, C]) *Consumer[T, C] {
	c, err := New(o)
	if err != nil {
		panic(err)
	}
	return c
}

// runKey is the idempotency key of a key's run: one live row per key.
func runKey(name string) func(Input) string {
	return func(in Input) string { return "consumer:" + name + ":" + in.Key }
}

// Name answers the consumer's durable name.
func (c *Consumer[T, C]) Name() string { return c.o.Name }

// Jobs answers the consumer's two jobs, the run job (named Name) and the arm
// job (Name.arm), for a worker's registry.
func (c *Consumer[T, C]) Jobs() []pipeline.Registrable {
	return []pipeline.Registrable{c.run, c.arm}
}

// Supervisor answers the task Name.supervisor, which enqueues the arm job at
// every rearm, for a scheduler.
func (c *Consumer[T, C]) Supervisor() *pipeline.Task { return c.supervisor }

// Enqueue starts key's run through db (a pool, a connection or the caller's
// transaction): a new run when none is live, else the live one, Deduped.
// From the consumer's own open or handle it is X_CONSUMER_SELF_ENQUEUE.
func (c *Consumer[T, C]) Enqueue(ctx context.Context, db pipeline.DB, key string, opts ...pipeline.EnqueueOptions) (pipeline.EnqueueResult, error) {
	if err := refuseSelf(ctx, c.o.Name, "Enqueue"); err != nil {
		return pipeline.EnqueueResult{}, err
	}
	if err := checkKey(c.o.Name, 0, key); err != nil {
		return pipeline.EnqueueResult{}, err
	}
	return c.run.Enqueue(ctx, db, Input{Key: key}, opts...)
}

// Arm enqueues the arm job now, through db, as the supervisor does at every
// rearm: it asks Keys and starts each key not running. From the consumer's
// own open or handle it is X_CONSUMER_SELF_ENQUEUE.
func (c *Consumer[T, C]) Arm(ctx context.Context, db pipeline.DB) (pipeline.EnqueueResult, error) {
	if err := refuseSelf(ctx, c.o.Name, "Arm"); err != nil {
		return pipeline.EnqueueResult{}, err
	}
	return c.arm.Enqueue(ctx, db, ArmInput{})
}
