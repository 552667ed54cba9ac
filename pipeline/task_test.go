package pipeline_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
)

func TestNewTaskRefusesBadDeclarations(t *testing.T) {
	entries := tickEntry(tickJob(t, "refused"))
	cases := []struct {
		name, cron, zone string
		entries          []pipeline.TaskEntry
		opts             pipeline.TaskOptions
		want             []string
	}{
		{"bad-both", "61 * * * *", "Mars/Olympus_Mons", entries, pipeline.TaskOptions{},
			[]string{"cron expression \"61 * * * *\" does not parse", "time zone \"Mars/Olympus_Mons\" is not a known IANA zone"}},
		{"missing", "", "", entries, pipeline.TaskOptions{}, []string{"cron expression is empty", "time zone is empty"}},
		{"six-fields", "0 0 * * * *", "UTC", entries, pipeline.TaskOptions{}, []string{"does not parse"}},
		{"every", "@every 1h", "UTC", entries, pipeline.TaskOptions{}, []string{"is an interval"}},
		{"tz-prefix", "TZ=UTC", "UTC", entries, pipeline.TaskOptions{}, []string{"names a zone"}},
		{"never", "0 0 30 2 *", "UTC", entries, pipeline.TaskOptions{}, []string{"names no date that occurs"}},
		{"local", "@daily", "Local", entries, pipeline.TaskOptions{}, []string{"depends on the host"}},
		{"no-entries", "@daily", "UTC", nil, pipeline.TaskOptions{}, []string{"no entries"}},
		{"nil-entry", "@daily", "UTC", []pipeline.TaskEntry{pipeline.Entry[tick, struct{}](nil, nil)}, pipeline.TaskOptions{}, []string{"entry 0 has no job"}},
		{"catch-up", "@daily", "UTC", entries, pipeline.TaskOptions{CatchUp: "all", MaxCatchUp: -1}, []string{"CatchUp \"all\"", "MaxCatchUp must be"}},
		{"", "@daily", "UTC", entries, pipeline.TaskOptions{}, []string{"name is empty"}},
	}
	for _, c := range cases {
		_, err := pipeline.NewTask(c.name, c.cron, c.zone, c.entries, c.opts)
		if !errors.Is(err, errcode.JobDeclarationInvalid) {
			t.Errorf("%s: err = %v, want X_JOB_DECLARATION_INVALID", c.name, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v\ndoes not name %q", c.name, err, w)
			}
		}
	}
}

func TestNewTaskAcceptsDescriptorsAndDefaults(t *testing.T) {
	for _, expr := range []string{"@hourly", "@daily", "@midnight", "@weekly", "@monthly", "@yearly", "*/15 9-17 * * mon-fri", "0 0 29 feb *"} {
		task, err := pipeline.NewTask("ok", expr, "Europe/Berlin", tickEntry(tickJob(t, "ok")))
		if err != nil {
			t.Errorf("%s: %v", expr, err)
			continue
		}
		if task.CatchUp() != pipeline.CatchUpSkip || task.MaxCatchUp() != pipeline.DefaultMaxCatchUp {
			t.Errorf("%s: defaults %s/%d", expr, task.CatchUp(), task.MaxCatchUp())
		}
	}
}

// nexts walks NextTaskRun from from while occurrences fall before to.
func nexts(task *pipeline.Task, from, to time.Time) []time.Time {
	var out []time.Time
	for at := pipeline.NextTaskRun(task, from); !at.IsZero() && at.Before(to); at = pipeline.NextTaskRun(task, at) {
		out = append(out, at.UTC())
	}
	return out
}

func TestNextTaskRunAcrossDST(t *testing.T) {
	cases := []struct {
		name, cron, zone string
		from, to         string
		want             []string
	}{
		// Spring forward, New York: 02:00 EST jumps to 03:00 EDT (07:00Z). The
		// skipped 02:30 fires once, at the jump.
		{"skipped-hour", "30 2 * * *", "America/New_York", "2026-03-07T12:00:00Z", "2026-03-10T00:00:00Z",
			[]string{"2026-03-08T07:00:00Z", "2026-03-09T06:30:00Z"}},
		// Fall back, New York: 01:00-02:00 happens twice; 01:30 fires once, in
		// its first (EDT) instance.
		{"repeated-hour", "30 1 * * *", "America/New_York", "2026-10-31T12:00:00Z", "2026-11-03T00:00:00Z",
			[]string{"2026-11-01T05:30:00Z", "2026-11-02T06:30:00Z"}},
		// Starting inside the second 01:xx does not fire the repeated 01:30.
		{"inside-repeat", "30 1 * * *", "America/New_York", "2026-11-01T06:15:00Z", "2026-11-03T00:00:00Z",
			[]string{"2026-11-02T06:30:00Z"}},
		// Several skipped wall times landing on the jump are one occurrence.
		{"skipped-many", "*/30 * * * *", "America/New_York", "2026-03-08T06:00:00Z", "2026-03-08T08:00:00Z",
			[]string{"2026-03-08T06:30:00Z", "2026-03-08T07:00:00Z", "2026-03-08T07:30:00Z"}},
		// A 30-minute offset with no DST.
		{"kolkata", "30 9 * * *", "Asia/Kolkata", "2026-03-07T00:00:00Z", "2026-03-09T00:00:00Z",
			[]string{"2026-03-07T04:00:00Z", "2026-03-08T04:00:00Z"}},
		// Lord Howe moves its clock by 30 minutes: 02:00 jumps to 02:30 (+11)
		// on 2026-10-04, and 02:00 falls back to 01:30 (+10:30) on 2026-04-05.
		{"lord-howe-gap", "15 2 * * *", "Australia/Lord_Howe", "2026-10-02T00:00:00Z", "2026-10-05T00:00:00Z",
			[]string{"2026-10-02T15:45:00Z", "2026-10-03T15:30:00Z", "2026-10-04T15:15:00Z"}},
		{"lord-howe-repeat", "45 1 * * *", "Australia/Lord_Howe", "2026-04-03T00:00:00Z", "2026-04-06T00:00:00Z",
			[]string{"2026-04-03T14:45:00Z", "2026-04-04T14:45:00Z", "2026-04-05T15:15:00Z"}},
	}
	for _, c := range cases {
		task := tickTask(t, c.name, c.cron, c.zone)
		got := nexts(task, utc(t, c.from), utc(t, c.to))
		var want []time.Time
		for _, w := range c.want {
			want = append(want, utc(t, w))
		}
		if !sameInstants(got, want) {
			t.Errorf("%s: got %v\nwant %v", c.name, got, want)
		}
	}
}

func TestHourlyFiresOncePerWallClockHour(t *testing.T) {
	ny, _ := time.LoadLocation("America/New_York")
	task := tickTask(t, "hourly", "@hourly", "America/New_York")
	for day, want := range map[string]int{"2026-03-08": 23, "2026-11-01": 24, "2026-06-01": 24} {
		d, _ := time.ParseInLocation(time.DateOnly, day, ny)
		got := nexts(task, d.Add(-time.Second), d.AddDate(0, 0, 1))
		if len(got) != want {
			t.Errorf("%s: %d fires, want %d: %v", day, len(got), want, got)
		}
	}
}

func TestNextTaskRunIsInTheTasksZone(t *testing.T) {
	task := tickTask(t, "zoned", "0 9 * * *", "Asia/Kolkata")
	at := pipeline.NextTaskRun(task, utc(t, "2026-01-01T00:00:00Z"))
	if at.Location().String() != "Asia/Kolkata" || at.Hour() != 9 || !at.Equal(utc(t, "2026-01-01T03:30:00Z")) {
		t.Fatalf("next = %v", at)
	}
}

func FuzzTaskCron(f *testing.F) {
	for _, s := range []string{"* * * * *", "@daily", "61 * * * *", "TZ=", "CRON_TZ=x", "*/0 * * * *", "1-2/3,4 5 6 7 1", "0 0 30 2 *"} {
		f.Add(s)
	}
	entries := []pipeline.TaskEntry{pipeline.Entry(tickJob(f, "fuzz"), func(pipeline.Occurrence) tick { return tick{} })}
	from := time.Date(2026, 3, 8, 6, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, expr string) {
		task, err := pipeline.NewTask("fuzz", expr, "America/New_York", entries)
		if err != nil {
			if !errors.Is(err, errcode.JobDeclarationInvalid) {
				t.Fatalf("%q: %v", expr, err)
			}
			return
		}
		if at := task.Next(from); !at.IsZero() && !at.After(from) {
			t.Fatalf("%q: next %v is not after %v", expr, at, from)
		}
	})
}
