package consumer

import (
	"context"
	"sync/atomic"

	"github.com/pipekit/pipe/errcode"
)

// guardKey marks the context a consumer's run hands to open and handle.
type guardKey struct{}

// guard is what the marker holds: the consumer whose run it is, whether
// that run tried to enqueue its own consumer, and whether the source its
// Open opened needs to hear of commits ([NeedsCommitted]).
type guard struct {
	consumer       string
	tripped        atomic.Bool
	needsCommitted atomic.Bool
}

func withGuard(ctx context.Context, name string) (context.Context, *guard) {
	g := &guard{consumer: name}
	return context.WithValue(ctx, guardKey{}, g), g
}

func guardFrom(ctx context.Context) *guard {
	g, _ := ctx.Value(guardKey{}).(*guard)
	return g
}

// refuseSelf answers X_CONSUMER_SELF_ENQUEUE, and trips the run's guard,
// when ctx is the context of a run of the consumer named name: an enqueue
// there would dedupe onto the running row (its own key) or start a second
// runner from inside the first. The run checks its guard after open and
// after handle, so an app that swallows the error still fails the batch.
func refuseSelf(ctx context.Context, name, what string) error {
	g := guardFrom(ctx)
	if g == nil || g.consumer != name {
		return nil
	}
	g.tripped.Store(true)
	return selfEnqueueErr(name, what)
}

func selfEnqueueErr(name, what string) error {
	return errcode.New(errcode.ConsumerSelfEnqueue, "consumer %s: %s was called from the consumer's own open or handle", name, what).
		WithFix("start keys from outside the consumer: answer them from Keys, and call Arm or Enqueue from a request, a task or another job")
}

// check answers the refusal when the run's open or handle tried a
// self-enqueue, whatever they returned.
func (g *guard) check(name string) error {
	if g.tripped.Load() {
		return selfEnqueueErr(name, "Enqueue or Arm")
	}
	return nil
}
