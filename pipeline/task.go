package pipeline

import (
	"fmt"
	"strings"
	"time"

	"github.com/pipekit/pipe/errcode"
	"github.com/robfig/cron/v3"
)

// CatchUp is what a task fires for the occurrences it missed while no
// scheduler led, or while it was paused.
type CatchUp string

const (
	// CatchUpSkip fires the latest missed occurrence once and skips the
	// earlier ones. The default.
	CatchUpSkip CatchUp = "skip"
	// CatchUpRunOnce fires once for the whole missed span, stamped at its
	// first missed occurrence; [Occurrence].Through is the span's last one,
	// so one run can cover the span.
	CatchUpRunOnce CatchUp = "run-once"
	// CatchUpRunAll fires every missed occurrence, oldest first, up to
	// MaxCatchUp of the latest; older ones are skipped.
	CatchUpRunAll CatchUp = "run-all"
)

// DefaultMaxCatchUp bounds a run-all catch-up when MaxCatchUp is zero.
const DefaultMaxCatchUp = 10

// MaxCatchUpLimit is the largest MaxCatchUp a task may declare.
const MaxCatchUpLimit = 1_000

// TaskOptions are a task's optional settings. Each field's comment gives its
// default; a bad value is refused by [NewTask].
type TaskOptions struct {
	// CatchUp is what fires for missed occurrences. Default CatchUpSkip.
	CatchUp CatchUp
	// MaxCatchUp bounds how many missed occurrences a CatchUpRunAll
	// catch-up fires. Zero means DefaultMaxCatchUp (10); negative or over
	// MaxCatchUpLimit is refused.
	MaxCatchUp int
}

// Task is a declared schedule: a cron expression in an IANA zone and the
// entries each occurrence enqueues. A scheduler fires it; see [Scheduler].
// It is safe for concurrent use.
type Task struct {
	name       string
	cron       string
	loc        *time.Location
	sched      *cron.SpecSchedule
	entries    []TaskEntry
	catchUp    CatchUp
	maxCatchUp int
}

// NewTask declares a task named name that fires entries at each occurrence of
// the five-field cron expression (or @hourly, @daily, @weekly, @monthly,
// @yearly) read in the IANA zone. The cron, the zone and at least one entry
// are required. Every fault is named in one X_JOB_DECLARATION_INVALID error.
func NewTask(name, cronExpr, zone string, entries []TaskEntry, opts ...TaskOptions) (*Task, error) {
	t := &Task{name: name, cron: strings.TrimSpace(cronExpr), entries: entries}
	var faults []string
	if len(opts) > 1 {
		faults = append(faults, "pass at most one TaskOptions")
	} else if len(opts) == 1 {
		t.catchUp, t.maxCatchUp = opts[0].CatchUp, opts[0].MaxCatchUp
	}
	faults = append(faults, t.nameFaults()...)
	var fault string
	if t.sched, fault = parseCron(cronExpr); fault != "" {
		faults = append(faults, fault)
	}
	if t.loc, fault = parseZone(zone); fault != "" {
		faults = append(faults, fault)
	}
	faults = append(faults, t.entryFaults()...)
	faults = append(faults, t.catchUpFaults()...)
	if len(faults) > 0 {
		return nil, taskDeclarationError(name, faults)
	}
	return t, nil
}

// MustTask is [NewTask] that panics on a bad declaration, for package-level
// variables.
func MustTask(name, cronExpr, zone string, entries []TaskEntry, opts ...TaskOptions) *Task {
	t, err := NewTask(name, cronExpr, zone, entries, opts...)
	if err != nil {
		panic(err)
	}
	return t
}

func (t *Task) nameFaults() []string {
	switch {
	case strings.TrimSpace(t.name) == "":
		return []string{"the name is empty"}
	case len(t.name) > 200:
		return []string{"the name is longer than 200 characters"}
	}
	return nil
}

func (t *Task) entryFaults() []string {
	if len(t.entries) == 0 {
		return []string{"the task has no entries"}
	}
	var out []string
	for i, e := range t.entries {
		if e.enqueue == nil {
			out = append(out, fmt.Sprintf("entry %d has no job or no input function", i))
		}
	}
	return out
}

func (t *Task) catchUpFaults() []string {
	var out []string
	switch t.catchUp {
	case "":
		t.catchUp = CatchUpSkip
	case CatchUpSkip, CatchUpRunOnce, CatchUpRunAll:
	default:
		out = append(out, fmt.Sprintf("CatchUp %q is not skip, run-once or run-all", string(t.catchUp)))
	}
	switch {
	case t.maxCatchUp == 0:
		t.maxCatchUp = DefaultMaxCatchUp
	case t.maxCatchUp < 0 || t.maxCatchUp > MaxCatchUpLimit:
		out = append(out, fmt.Sprintf("MaxCatchUp must be between 1 and %d", MaxCatchUpLimit))
	}
	return out
}

func taskDeclarationError(name string, faults []string) error {
	label := name
	if strings.TrimSpace(label) == "" {
		label = "(unnamed)"
	}
	return errcode.New(errcode.JobDeclarationInvalid, "task %s: %s", label, strings.Join(faults, "; ")).
		WithFix("correct each named field of the task's declaration")
}

// Name answers the task's durable name: its watermark's key.
func (t *Task) Name() string { return t.name }

// Cron answers the task's cron expression as declared.
func (t *Task) Cron() string { return t.cron }

// Zone answers the task's IANA zone.
func (t *Task) Zone() *time.Location { return t.loc }

// CatchUp answers the resolved catch-up mode.
func (t *Task) CatchUp() CatchUp { return t.catchUp }

// MaxCatchUp answers the resolved run-all bound.
func (t *Task) MaxCatchUp() int { return t.maxCatchUp }

// Next answers the task's next occurrence strictly after from, in the task's
// zone, or the zero time if none falls within five years. It is the resolver
// the scheduler fires by.
func (t *Task) Next(from time.Time) time.Time {
	return nextOccurrence(t.sched, t.loc, from)
}

// NextTaskRun answers t's next occurrence strictly after from, in t's own
// zone: the scheduler's own resolver, so a dashboard and the scheduler cannot
// disagree. It needs no running scheduler.
func NextTaskRun(t *Task, from time.Time) time.Time { return t.Next(from) }
