package pipecli_test

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"time"

	"github.com/pipekit/pipe/cmd/pipe/pipecli"
)

// stream is an output stream that a test reads while the command still
// writes it: each complete line is also delivered on lines.
type stream struct {
	mu    sync.Mutex
	all   bytes.Buffer
	part  []byte
	lines chan string
}

func newStream() *stream { return &stream{lines: make(chan string, 10_000)} }

func (s *stream) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.all.Write(p)
	s.part = append(s.part, p...)
	for {
		i := bytes.IndexByte(s.part, '\n')
		if i < 0 {
			return len(p), nil
		}
		select {
		case s.lines <- string(s.part[:i]):
		default: // a test that reads no lines does not block the command
		}
		s.part = s.part[i+1:]
	}
}

func (s *stream) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.all.String()
}

// waitLine answers the first line, from here on, that match accepts; it
// fails the test after 20 seconds.
func (s *stream) waitLine(t *testing.T, what string, match func(string) bool) string {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case line := <-s.lines:
			if match(line) {
				return line
			}
		case <-timeout:
			t.Fatalf("no %s line; the stream so far:\n%s", what, s.String())
		}
	}
}

// running is a command running in the background.
type running struct {
	stdout, stderr *stream
	stop           context.CancelFunc
	done           chan int
}

// start runs the command line against the bundle's database, without the
// stock hourly maintenance (quietOptions), until the test calls stop; wait
// answers its result.
func (b *bundle) start(t *testing.T, opts pipecli.Options, args ...string) *running {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	r := &running{stdout: newStream(), stderr: newStream(), stop: cancel, done: make(chan int, 1)}
	opts = quietOptions(opts)
	opts.Stdout, opts.Stderr = r.stdout, r.stderr
	go func() { r.done <- pipecli.Execute(ctx, append([]string{"--database-url", b.url}, args...), opts) }()
	t.Cleanup(func() { cancel(); <-r.done })
	return r
}

// wait stops the command and answers what it printed and its exit code.
func (r *running) wait() result {
	r.stop()
	code := <-r.done
	r.done <- code // for the cleanup
	return result{stdout: r.stdout.String(), stderr: r.stderr.String(), code: code}
}

// waitFor polls cond until it holds; it fails the test after 20 seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("timed out waiting for %s", what)
		case <-tick.C:
		}
	}
}
