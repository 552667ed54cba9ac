package pipeline

import (
	"context"
	"sync"

	"github.com/pipekit/pipe/errcode"
)

// NPlusOneAt is how many single enqueues of one job one watched scope makes
// before [WatchWrites] reports them: a loop of Enqueue where one
// EnqueueMany would do (one statement a thousand inputs, where the loop is
// one a input).
const NPlusOneAt = 10

// WriteFinding is what [WatchWrites] reports: Job was enqueued one input at
// a time Count times in one scope. Err is X_N_PLUS_ONE_WRITE, its fix
// naming EnqueueMany.
type WriteFinding struct {
	Job   string
	Count int
	Err   error
}

// writeWatch counts a scope's single enqueues by job.
type writeWatch struct {
	mu     sync.Mutex
	counts map[string]int
	report func(WriteFinding)
}

type writeWatchKey struct{}

// WatchWrites answers ctx watched for enqueues in a loop: the
// [NPlusOneAt]th single Enqueue of one job under it calls report, once for
// that job. A request handler in development wraps its context with it; a
// worker with WorkerConfig.WatchWrites (as `pipe dev` runs) watches each
// run's body and logs jobs.write.n_plus_one; fixtures.WatchWrites fails a
// test. Watching costs a map update a single enqueue, nothing else.
func WatchWrites(ctx context.Context, report func(WriteFinding)) context.Context {
	return context.WithValue(ctx, writeWatchKey{}, &writeWatch{counts: map[string]int{}, report: report})
}

// noteSingle counts one single enqueue of job under ctx's watch, if any.
func noteSingle(ctx context.Context, job string) {
	w, _ := ctx.Value(writeWatchKey{}).(*writeWatch)
	if w == nil {
		return
	}
	w.mu.Lock()
	w.counts[job]++
	n := w.counts[job]
	w.mu.Unlock()
	if n == NPlusOneAt {
		w.report(WriteFinding{Job: job, Count: n, Err: nPlusOne(job, n)})
	}
}

func nPlusOne(job string, n int) error {
	return errcode.New(errcode.NPlusOneWrite, "job %s was enqueued one input at a time %d times in one scope", job, n).
		WithFix("collect the inputs and call EnqueueMany once: one statement a thousand inputs, in the same transaction")
}
