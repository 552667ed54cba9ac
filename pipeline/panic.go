package pipeline

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/pipekit/pipe/errcode"
)

// panicked codes a body's panic: X_JOB_PANICKED, retried, naming the panic's
// type and the line that panicked — never the panic's value, which may hold
// the input. Call it from the deferred function that recovered p.
func panicked(job string, p any) error {
	return errcode.New(errcode.JobPanicked, "job %s: the body panicked (%s) at %s", job, panicType(p), panicSite()).
		WithFix("fix the panic at the line named; the attempt is retried")
}

func panicType(p any) string {
	if err, ok := p.(error); ok {
		if c := errcode.CodeOf(err); c != "" {
			return string(c)
		}
	}
	return fmt.Sprintf("%T", p)
}

// panicSite answers "file.go:line (package.Function)" of the frame that
// panicked: the first frame past runtime.gopanic that is not the runtime's
// own (an index out of range passes through runtime.goPanicIndex, a nil
// dereference through runtime.sigpanic).
func panicSite() string {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(2, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	past := false
	for {
		f, more := frames.Next()
		if past && !strings.HasPrefix(f.Function, "runtime.") {
			return fmt.Sprintf("%s:%d (%s)", filepath.Base(f.File), f.Line, shortFunc(f.Function))
		}
		if f.Function == "runtime.gopanic" {
			past = true
		}
		if !more {
			return "an unknown place"
		}
	}
}

// shortFunc drops a function's import path but its last element.
func shortFunc(name string) string {
	if i := strings.LastIndex(name, "/"); i >= 0 {
		return name[i+1:]
	}
	return name
}
