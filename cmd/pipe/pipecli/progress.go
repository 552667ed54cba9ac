package pipecli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/pipekit/pipe/pipeline"
)

// progressBar draws a run's progress on one terminal line. It draws nothing
// when its writer is not a terminal, so piped output stays clean.
type progressBar struct {
	w    io.Writer
	on   bool
	last string
}

func newProgressBar(w io.Writer) *progressBar {
	f, ok := w.(*os.File)
	if !ok {
		return &progressBar{w: w}
	}
	fi, err := f.Stat()
	return &progressBar{w: w, on: err == nil && fi.Mode()&os.ModeCharDevice != 0}
}

// watch is the callback of workInProcess.
func (p *progressBar) watch(d *pipeline.RunDetail) {
	if !p.on || len(d.Progress) == 0 {
		return
	}
	var pr pipeline.ProgressRecord
	if json.Unmarshal(d.Progress, &pr) != nil {
		return
	}
	line := renderProgress(pr)
	if line != p.last {
		fmt.Fprintf(p.w, "\r%s\x1b[K", line)
		p.last = line
	}
}

// clear blanks the bar's line, for a line printed above it; the next
// watch draws the bar again.
func (p *progressBar) clear() {
	if p.on && p.last != "" {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.last = ""
	}
}

// done ends the bar's line.
func (p *progressBar) done() {
	if p.on && p.last != "" {
		fmt.Fprintln(p.w)
	}
}

// renderProgress draws [#####.....]  45%  note, or the note alone when the
// total is not known.
func renderProgress(pr pipeline.ProgressRecord) string {
	if pr.Total <= 0 {
		return pr.Note
	}
	const width = 30
	frac := min(float64(pr.Done)/float64(pr.Total), 1)
	n := int(frac * width)
	return fmt.Sprintf("[%s%s] %3.0f%%  %s", strings.Repeat("#", n), strings.Repeat(".", width-n), frac*100, pr.Note)
}
