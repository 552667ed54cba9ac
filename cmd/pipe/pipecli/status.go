package pipecli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

// Status line timings: redrawn every second on a terminal, a line every 5 s
// otherwise; each read of the queues is bounded.
const (
	statusTerminalEvery = time.Second
	statusLogEvery      = 5 * time.Second
	statusReadTimeout   = 2 * time.Second
)

// statusWidth is the status line's width on a terminal when $COLUMNS does
// not say: a line that wraps cannot be redrawn in place.
const statusWidth = 80

// devStatus is one status line of `pipe dev`; with --json it is printed as
// one JSON object a line.
type devStatus struct {
	At       time.Time             `json:"at"`
	InFlight int                   `json:"inFlight"`
	Capacity int                   `json:"capacity"`
	Queues   []pipeline.QueueStats `json:"queues"`
	// Error is the code of a failed read of the queues.
	Error string `json:"error,omitempty"`
}

// statusLine prints `pipe dev`'s status: on a terminal, one line redrawn
// in place, with log lines written above it; otherwise (or with --json) a
// line at a time.
type statusLine struct {
	out      io.Writer
	terminal bool
	json     bool
	width    int

	mu    sync.Mutex
	drawn string // on a terminal, the line on screen
}

func (a *app) newStatusLine() *statusLine {
	l := &statusLine{out: a.stdout, terminal: !a.json && isTerminal(a.stdout), json: a.json, width: statusWidth}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 1 {
		l.width = n - 1
	}
	return l
}

// isTerminal reports whether w is a character device, such as a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// run prints a status from read at once, then at every interval until ctx
// ends.
func (l *statusLine) run(ctx context.Context, read func(context.Context) devStatus) {
	every := statusLogEvery
	if l.terminal {
		every = statusTerminalEvery
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		l.show(read(ctx))
		select {
		case <-ctx.Done():
			l.end()
			return
		case <-tick.C:
		}
	}
}

// show prints st: redrawn over the last line on a terminal, else a line.
func (l *statusLine) show(st devStatus) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.json:
		_ = json.NewEncoder(l.out).Encode(st)
	case l.terminal:
		l.drawn = truncate(st.text(), l.width)
		fmt.Fprint(l.out, "\r\033[K"+l.drawn)
	default:
		fmt.Fprintln(l.out, st.text())
	}
}

// end leaves the terminal's cursor below the status line.
func (l *statusLine) end() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.terminal && l.drawn != "" {
		fmt.Fprintln(l.out)
		l.drawn = ""
	}
}

// around answers w, written so that on a terminal each write clears the
// status line first and redraws it after.
func (l *statusLine) around(w io.Writer) io.Writer {
	if !l.terminal {
		return w
	}
	return &aroundWriter{l: l, w: w}
}

type aroundWriter struct {
	l *statusLine
	w io.Writer
}

func (a *aroundWriter) Write(p []byte) (int, error) {
	a.l.mu.Lock()
	defer a.l.mu.Unlock()
	if a.l.drawn != "" {
		fmt.Fprint(a.l.out, "\r\033[K")
	}
	n, err := a.w.Write(p)
	if a.l.drawn != "" {
		fmt.Fprint(a.l.out, a.l.drawn)
	}
	return n, err
}

// text renders the status as one line: the time, the slots in use, and each
// queue's live depths.
func (st devStatus) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s | in flight %d/%d", stamp(st.At), st.InFlight, st.Capacity)
	switch {
	case st.Error != "":
		fmt.Fprintf(&b, " | queues unreadable (%s)", st.Error)
	case len(st.Queues) == 0:
		b.WriteString(" | no queues yet")
	}
	for _, q := range st.Queues {
		fmt.Fprintf(&b, " | %s", q.Queue)
		if q.Paused {
			b.WriteString(" (paused)")
		}
		e := q.Estimated
		fmt.Fprintf(&b, ": %s ready, %s delayed, %s running, %s suspended",
			depth(q.Ready, e.Open), depth(q.Delayed, e.Open), depth(q.Running, e.Running), depth(q.Suspended, e.Open))
	}
	return b.String()
}

// errorCode answers err's code, for a status line.
func errorCode(err error) string {
	return string(errcode.CodeOf(err))
}
