package pipeline

import (
	"context"

	"github.com/pipekit/pipe/errcode"
)

// halting is a stop under way: a Shutdown that arrives while a Stop waits
// turns it into a drain, and the second caller waits for the first's end.
type halting struct {
	drain chan context.Context // a Shutdown's context, handed to the stop under way
	done  chan struct{}        // closed when the stop has ended
	err   error                // the stop's answer, read after done
}

func newHalting() halting {
	return halting{drain: make(chan context.Context, 1), done: make(chan struct{})}
}

// Stop stops claiming and waits for the runs it holds to finish, without
// cancelling them. If ctx ends first, the remaining runs are abandoned (their
// leases lapse and another worker takes them) and ctx's error is answered.
// A Shutdown during the wait turns it into a drain.
func (w *Worker) Stop(ctx context.Context) error {
	return w.stop(ctx, false)
}

// Shutdown drains: it stops claiming and cancels every held body's context
// with X_DRAINING. A body that unwinds before ctx ends is interrupted — its
// run goes straight back to ready with the attempt uncounted. One still
// running when ctx ends is abandoned. Call it on SIGTERM with the drain
// budget as ctx's deadline. Called while a Stop waits, it drains that stop:
// every held body hears X_DRAINING, and the wait ends by ctx's deadline too.
func (w *Worker) Shutdown(ctx context.Context) error {
	return w.stop(ctx, true)
}

func (w *Worker) stop(ctx context.Context, drain bool) error {
	if !w.started.Load() {
		return nil
	}
	if !w.stopped.CompareAndSwap(false, true) {
		return w.joinStop(ctx, drain)
	}
	defer close(w.halt.done)
	w.stopFn()
	// The last pass may still be starting runs: let it finish first, so that
	// every run is held (and hears a drain) before the wait for bodies.
	w.fetching.Wait()
	if drain {
		w.drainHeld()
	}
	w.halt.err = w.awaitBodies(ctx, drain)
	w.hbStop()
	w.loops.Wait()
	w.retire(context.Background())
	w.store.close()
	w.log.info("jobs.worker.stopped")
	return w.halt.err
}

// joinStop is a second stop: a Shutdown hands its context to the stop under
// way, which drains; either waits for that stop's end.
func (w *Worker) joinStop(ctx context.Context, drain bool) error {
	if drain {
		select {
		case w.halt.drain <- ctx:
		default: // a Shutdown already handed one
		}
	}
	<-w.halt.done
	return w.halt.err
}

// awaitBodies waits for the held bodies to end, abandoning those still
// running when ctx ends, or when the context of a Shutdown that arrived
// meanwhile ends.
func (w *Worker) awaitBodies(ctx context.Context, draining bool) error {
	done := make(chan struct{})
	go func() { w.bodies.Wait(); close(done) }()
	var later <-chan struct{} // a joining Shutdown's deadline
	var laterCtx context.Context
	for {
		select {
		case <-done:
			return nil
		case dctx := <-w.halt.drain:
			if !draining {
				draining = true
				w.drainHeld()
			}
			later, laterCtx = dctx.Done(), dctx
			continue
		case <-ctx.Done():
		case <-later:
			ctx = laterCtx
		}
		w.cancelHeld(errcode.New(errcode.Aborted, "worker %s stopped before the run finished", w.cfg.ID).
			WithFix("none: the run's lease lapses and another worker takes it"))
		close(w.abandon)
		<-done
		return ctx.Err()
	}
}

// drainHeld cancels every held body with X_DRAINING.
func (w *Worker) drainHeld() {
	w.cancelHeld(errcode.New(errcode.Draining, "worker %s is draining", w.cfg.ID).
		WithFix("none: the run goes straight back to the queue"))
}
