package pipeline

import (
	"runtime"
	"time"
)

// goIdle is how long a pooled goroutine waits for more work before it ends.
const goIdle = 10 * time.Second

// goPool runs functions on reused goroutines. A new goroutine starts with a
// small stack and copies it each time it grows; a run's body, its journal
// replay and its JSON grow it the same way every time, so a fresh goroutine
// per run spent a fifth of the worker's CPU copying stacks. A pooled
// goroutine keeps the stack it grew (until a collection finds it mostly
// unused and halves it). Idle goroutines end after goIdle.
type goPool struct {
	work chan func()
}

func newGoPool() *goPool { return &goPool{work: make(chan func())} }

// Go runs f on an idle pooled goroutine, or on a new one when none waits.
func (p *goPool) Go(f func()) {
	select {
	case p.work <- f:
	default:
		go p.serve(f)
	}
}

func (p *goPool) serve(f func()) {
	idle := time.NewTimer(goIdle)
	defer idle.Stop()
	for {
		f()
		f = nil
		idle.Reset(goIdle)
		if f = p.wait(idle); f == nil {
			return
		}
	}
}

// wait waits for the next function, or answers nil when idle fires. It
// waits with a stack frame of stackKept bytes, so that a collection finds
// the goroutine's stack in use and does not halve it.
//
//go:noinline
func (p *goPool) wait(idle *time.Timer) func() {
	var keep [stackKept]byte
	defer runtime.KeepAlive(&keep)
	select {
	case f := <-p.work:
		return f
	case <-idle.C:
		return nil
	}
}

const stackKept = 8 << 10
