package rollup

import (
	"slices"
	"time"
)

// Unit is the length of a bucket: a series unit read in the bucket's zone.
type Unit string

// The units a bucket may have. Week is ISO: it starts on Monday.
const (
	Minute  Unit = "minute"
	Hour    Unit = "hour"
	Day     Unit = "day"
	Week    Unit = "week"
	Month   Unit = "month"
	Quarter Unit = "quarter"
	Year    Unit = "year"
)

// Units answers every unit, shortest first.
func Units() []Unit { return []Unit{Minute, Hour, Day, Week, Month, Quarter, Year} }

// Valid reports whether u is one of [Units].
func (u Unit) Valid() bool { return slices.Contains(Units(), u) }

// Daily reports whether the unit is a day or coarser: a bucket column of
// type date can hold it (the bucket's first local day).
func (u Unit) Daily() bool { return u.Valid() && u != Minute && u != Hour }

// Start answers the first instant of the u-bucket that holds t, with
// buckets read in loc. It is the Go form of the SQL function
// pipe.bucket_start that the generated statements group by, and answers the
// same instants:
//
//   - a day, week (from Monday), month, quarter or year starts at local
//     midnight, as an instant, so a day is 23 or 25 hours long on a DST
//     transition; where a transition skips local midnight, the day starts at
//     the transition;
//   - a minute or an hour starts at the instant whose local wall-clock time
//     is the unit's start at t's own offset: every hour is 60 real minutes,
//     also on a fall-back day that shows 1:00 twice, and in a zone whose
//     offset is not whole hours (Asia/Kolkata) hours start at :30 UTC.
//
// Start answers t unchanged for a unit that is not one of [Units].
func (u Unit) Start(t time.Time, loc *time.Location) time.Time {
	local := t.In(loc)
	switch u {
	case Minute:
		return t.Add(-time.Duration(local.Second())*time.Second - time.Duration(local.Nanosecond())).In(loc)
	case Hour:
		sub := time.Duration(local.Minute())*time.Minute + time.Duration(local.Second())*time.Second
		return t.Add(-sub - time.Duration(local.Nanosecond())).In(loc)
	}
	y, m, d := local.Date()
	switch u {
	case Day:
	case Week:
		d -= (int(local.Weekday()) + 6) % 7 // days since Monday
	case Month:
		d = 1
	case Quarter:
		m, d = m-(m-1)%3, 1
	case Year:
		m, d = time.January, 1
	default:
		return t
	}
	return midnight(y, m, d, loc)
}

// Next answers the first instant of the u-bucket after the one that holds t.
func (u Unit) Next(t time.Time, loc *time.Location) time.Time {
	s := u.Start(t, loc)
	local := s.In(loc)
	y, m, d := local.Date()
	switch u {
	case Minute:
		return u.Start(s.Add(time.Minute), loc)
	case Hour:
		return u.Start(s.Add(time.Hour), loc)
	case Day:
		d++
	case Week:
		d += 7
	case Month:
		m++
	case Quarter:
		m += 3
	case Year:
		y++
	default:
		return t
	}
	return midnight(y, m, d, loc)
}

// midnight answers the first instant of the local date y-m-d (normalised as
// time.Date does) in loc: local midnight, or, where a DST transition skips
// midnight, the transition itself.
func midnight(y int, m time.Month, d int, loc *time.Location) time.Time {
	t := time.Date(y, m, d, 0, 0, 0, 0, loc)
	ly, lm, ld := t.Date()
	wy, wm, wd := time.Date(y, m, d, 12, 0, 0, 0, time.UTC).Date() // the date asked for, normalised
	if h, mi, s := t.Clock(); ly == wy && lm == wm && ld == wd && h == 0 && mi == 0 && s == 0 {
		return firstOf(t)
	}
	// Midnight fell in a gap: time.Date chose an offset that lands either
	// before the gap (on the previous date) or after it. Either way the date
	// begins at the transition, the edge of the zone period t is in.
	start, end := t.ZoneBounds()
	if ly != wy || lm != wm || ld != wd {
		return end
	}
	return start
}

// firstOf answers the first instant showing t's wall-clock time: where a
// fall-back repeats it, the earlier of the two, read with the larger offset
// of the zone period before t's.
func firstOf(t time.Time) time.Time {
	start, _ := t.ZoneBounds()
	if start.IsZero() {
		return t
	}
	_, off := t.Zone()
	_, before := start.Add(-time.Nanosecond).Zone()
	if before <= off {
		return t
	}
	c := t.Add(-time.Duration(before-off) * time.Second)
	if c.Before(start) && sameWall(c.In(t.Location()), t) {
		return c
	}
	return t
}

func sameWall(a, b time.Time) bool {
	ay, am, ad := a.Date()
	by, bm, bd := b.Date()
	return ay == by && am == bm && ad == bd && a.Hour() == b.Hour() && a.Minute() == b.Minute() && a.Second() == b.Second()
}
