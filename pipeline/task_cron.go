package pipeline

import (
	"fmt"
	"strings"
	"time"

	"github.com/robfig/cron/v3"
)

// The cron resolver.
//
// Expressions are parsed by github.com/robfig/cron/v3 (v3.0.1): five fields
// with ranges, steps, lists and month/day names, and the descriptors @yearly,
// @annually, @monthly, @weekly, @daily, @midnight and @hourly. A kept parser
// beats a hand-written one. Its own SpecSchedule.Next is not used in the
// task's zone, because it walks absolute time there: it drops an occurrence
// whose local time a spring-forward skips and fires one in a fall-back's
// repeated hour twice. Instead the schedule is matched against floating
// wall-clock time (local fields carried in UTC, which has no transitions), and
// each matching wall time is mapped to an instant here:
//
//   - a wall time that exists once is that instant;
//   - one a fall-back repeats is its first instant, so it fires once;
//   - one a spring-forward skips is the instant the clock jumps past it (Vixie
//     cron's reading), so it fires once, late; several skipped wall times
//     that land on that one instant are one occurrence.
//
// Every occurrence is thus one matching wall-clock time: `0 * * * *` fires 23
// times on a spring-forward day and 24 times on a fall-back day. A task that
// wants elapsed-time spacing across transitions declares the zone UTC.

// cronParser reads five-field expressions and the calendar descriptors.
var cronParser = cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// parseCron answers expr's schedule over floating wall time, or why not.
func parseCron(expr string) (sched *cron.SpecSchedule, fault string) {
	expr = strings.TrimSpace(expr)
	switch {
	case expr == "":
		return nil, "the cron expression is empty"
	case strings.HasPrefix(expr, "TZ=") || strings.HasPrefix(expr, "CRON_TZ="):
		return nil, "the cron expression names a zone: pass the zone as its own argument"
	case strings.HasPrefix(expr, "@every"):
		return nil, "the cron expression @every is an interval, not a calendar schedule"
	}
	s, err := safeParse(expr)
	if err != nil {
		return nil, fmt.Sprintf("the cron expression %q does not parse: %v", expr, err)
	}
	spec, ok := s.(*cron.SpecSchedule)
	if !ok {
		return nil, fmt.Sprintf("the cron expression %q is not a calendar schedule", expr)
	}
	spec.Location = time.UTC
	if spec.Next(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)).IsZero() {
		return nil, fmt.Sprintf("the cron expression %q names no date that occurs", expr)
	}
	return spec, ""
}

// safeParse turns a parser panic into an error: the fuzz test found none, but
// a declaration must never take the process down.
func safeParse(expr string) (s cron.Schedule, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the parser failed")
		}
	}()
	return cronParser.Parse(expr)
}

// parseZone answers the IANA zone named name, or why not.
func parseZone(name string) (*time.Location, string) {
	switch name {
	case "":
		return nil, "the time zone is empty (name an IANA zone such as UTC or Europe/Berlin)"
	case "Local":
		return nil, "the time zone Local depends on the host: name an IANA zone"
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Sprintf("the time zone %q is not a known IANA zone", name)
	}
	return loc, ""
}

// nextOccurrence answers the first occurrence of sched in loc strictly after
// from, or the zero time if there is none within five years.
func nextOccurrence(sched *cron.SpecSchedule, loc *time.Location, from time.Time) time.Time {
	// No occurrence after from has a wall time at or before from's, so the
	// walk starts there; it passes over wall times a fall-back repeats whose
	// first instant is already behind from.
	w := floating(from, loc)
	for {
		w = sched.Next(w)
		if w.IsZero() {
			return time.Time{}
		}
		if at := instantOf(w, loc); at.After(from) {
			return at
		}
	}
}

// floating answers t's wall clock in loc, carried in UTC.
func floating(t time.Time, loc *time.Location) time.Time {
	l := t.In(loc)
	return time.Date(l.Year(), l.Month(), l.Day(), l.Hour(), l.Minute(), l.Second(), l.Nanosecond(), time.UTC)
}

// instantOf answers the instant the floating wall time w names in loc: the
// first of two in a repeated hour, the end of the gap for a skipped one.
func instantOf(w time.Time, loc *time.Location) time.Time {
	t := time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), w.Nanosecond(), loc)
	if !floating(t, loc).Equal(w) {
		return gapEnd(t, w, loc)
	}
	start, _ := t.ZoneBounds()
	if start.IsZero() {
		return t
	}
	_, prev := start.Add(-time.Nanosecond).Zone()
	if u := w.Add(-time.Duration(prev) * time.Second); u.Before(start) && floating(u, loc).Equal(w) {
		return u.In(loc)
	}
	return t
}

// gapEnd answers the transition that skips the wall time w: the bound of t's
// zone period at which the wall clock jumps from before w to after it.
func gapEnd(t, w time.Time, loc *time.Location) time.Time {
	start, end := t.ZoneBounds()
	for _, c := range []time.Time{start, end} {
		if !c.IsZero() && floating(c, loc).After(w) && !floating(c.Add(-time.Nanosecond), loc).After(w) {
			return c.In(loc)
		}
	}
	return t
}
