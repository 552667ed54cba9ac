package pipeline_test

import (
	"testing"
	"time"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

// TestSchedulerFiresWhatNextTaskRunAnswers drives a scheduler across DST
// transitions in five-minute steps and checks that it fires exactly the
// occurrences NextTaskRun walks, and each skipped or repeated local time once.
func TestSchedulerFiresWhatNextTaskRunAnswers(t *testing.T) {
	type spec struct{ name, cron string }
	windows := []struct {
		name, zone string
		from, to   string
		tasks      []spec
		once       map[string]string // task -> its one expected fire
	}{
		{"new-york-spring-forward", "America/New_York", "2026-03-08T04:00:00Z", "2026-03-08T10:00:00Z",
			[]spec{{"skipped", "30 2 * * *"}, {"hourly", "0 * * * *"}, {"half", "*/30 * * * *"}},
			map[string]string{"skipped": "2026-03-08T07:00:00Z"}},
		{"new-york-fall-back", "America/New_York", "2026-11-01T03:00:00Z", "2026-11-01T09:00:00Z",
			[]spec{{"repeated", "30 1 * * *"}, {"hourly", "0 * * * *"}, {"half", "*/30 * * * *"}},
			map[string]string{"repeated": "2026-11-01T05:30:00Z"}},
		{"lord-howe-spring-forward", "Australia/Lord_Howe", "2026-10-03T13:00:00Z", "2026-10-03T17:00:00Z",
			[]spec{{"skipped", "15 2 * * *"}, {"quarter", "*/15 * * * *"}},
			map[string]string{"skipped": "2026-10-03T15:30:00Z"}},
		{"lord-howe-fall-back", "Australia/Lord_Howe", "2026-04-04T13:00:00Z", "2026-04-04T17:00:00Z",
			[]spec{{"repeated", "45 1 * * *"}, {"quarter", "*/15 * * * *"}},
			map[string]string{"repeated": "2026-04-04T14:45:00Z"}},
		{"kolkata", "Asia/Kolkata", "2026-03-08T02:00:00Z", "2026-03-08T06:00:00Z",
			[]spec{{"morning", "30 9 * * *"}, {"half", "*/30 * * * *"}},
			map[string]string{"morning": "2026-03-08T04:00:00Z"}},
	}
	for _, w := range windows {
		t.Run(w.name, func(t *testing.T) {
			t.Parallel()
			pool := fixtures.DB(t)
			from, to := utc(t, w.from), utc(t, w.to)
			clk := newSchedClock(from)
			var tasks []*pipeline.Task
			for _, s := range w.tasks {
				tasks = append(tasks, tickTask(t, s.name, s.cron, w.zone))
			}
			startScheduler(t, pool, clk, "a", nil, tasks...)
			clk.step(t, 1, int(to.Sub(from)/(5*time.Minute)), 5*time.Minute)
			for _, task := range tasks {
				got, want := firedAts(t, pool, task.Name()), nexts(task, from, to.Add(time.Nanosecond))
				if len(want) == 0 || !sameInstants(got, want) {
					t.Errorf("%s: fired %v\nNextTaskRun walks %v", task.Name(), got, want)
				}
				if once, ok := w.once[task.Name()]; ok && (len(got) != 1 || !got[0].Equal(utc(t, once))) {
					t.Errorf("%s: fired %v, want once at %s", task.Name(), got, once)
				}
			}
		})
	}
}
