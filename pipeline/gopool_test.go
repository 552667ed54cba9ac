package pipeline

import (
	"sync"
	"testing"
)

// Every function handed to the pool runs, and none waits for another: the
// pool is never a cap on concurrency.
func TestGoPoolRunsEveryFunctionConcurrently(t *testing.T) {
	p := newGoPool()
	const n = 64
	var started, release sync.WaitGroup
	started.Add(n)
	release.Add(1)
	var done sync.WaitGroup
	done.Add(n)
	for range n {
		p.Go(func() {
			started.Done()
			release.Wait() // all n block here at once
			done.Done()
		})
	}
	started.Wait()
	release.Done()
	done.Wait()
	// A second round reuses the idle goroutines and still runs all.
	done.Add(n)
	for range n {
		p.Go(done.Done)
	}
	done.Wait()
}

// deepWork grows its goroutine's stack as a run's body does (JSON, pgx, the
// replay): about 32 KiB.
//
//go:noinline
func deepWork(depth int) byte {
	var pad [512]byte
	pad[depth%512] = byte(depth)
	if depth == 0 {
		return pad[0]
	}
	return deepWork(depth-1) + pad[depth%512]
}

func BenchmarkGoPool(b *testing.B) {
	p := newGoPool()
	var wg sync.WaitGroup
	for b.Loop() {
		wg.Add(1)
		p.Go(func() { deepWork(64); wg.Done() })
		wg.Wait()
	}
}

func BenchmarkGoStatement(b *testing.B) {
	var wg sync.WaitGroup
	for b.Loop() {
		wg.Add(1)
		go func() { deepWork(64); wg.Done() }()
		wg.Wait()
	}
}
