package console

import (
	"time"

	"github.com/pipekit/pipe/pipeline"
)

// timelineWidth is the drawing's width in SVG units, labels excluded.
const timelineWidth = 600

// segment is one step's execution in one attempt, drawn as a bar.
type segment struct {
	Step       string
	Attempt    int
	Failed     bool
	Start, End time.Time
	Duration   time.Duration
	Executions int
	// X, W and Y place the bar in the drawing.
	X, W, Y int
}

// timeline is a run's step timeline: the bars and the drawing's height.
type timeline struct {
	Segments []segment
	Height   int
	Total    time.Duration
}

// buildTimeline reads the journal in order: a step's bar runs from the
// attempt's previous event (its claim, or the step before) to the step's
// completion or failure.
func buildTimeline(d *pipeline.RunDetail) timeline {
	execs := map[string]int{}
	for _, s := range d.Steps {
		execs[s.Name] = s.Executions
	}
	var segs []segment
	var last time.Time
	for _, e := range d.Journal {
		switch e.Kind {
		case "claimed":
			last = e.At
		case "step.completed", "step.failed":
			if e.Step == "" || last.IsZero() {
				last = e.At
				continue
			}
			segs = append(segs, segment{Step: e.Step, Attempt: e.Attempt, Failed: e.Kind == "step.failed",
				Start: last, End: e.At, Duration: e.At.Sub(last), Executions: execs[e.Step]})
			last = e.At
		}
	}
	return place(segs)
}

// place scales the bars onto the drawing.
func place(segs []segment) timeline {
	if len(segs) == 0 {
		return timeline{}
	}
	first, end := segs[0].Start, segs[len(segs)-1].End
	total := end.Sub(first)
	for i := range segs {
		s := &segs[i]
		s.Y = i * 22
		if total <= 0 {
			s.X, s.W = 0, timelineWidth
			continue
		}
		s.X = int(int64(timelineWidth) * int64(s.Start.Sub(first)) / int64(total))
		s.W = max(2, int(int64(timelineWidth)*int64(s.Duration)/int64(total)))
	}
	return timeline{Segments: segs, Height: len(segs) * 22, Total: total}
}
