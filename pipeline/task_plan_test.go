package pipeline_test

import (
	"testing"
	"time"

	"github.com/pipekit/pipe/pipeline"
)

func TestCatchUpPlanAfterAYearDown(t *testing.T) {
	now := utc(t, "2026-06-01T12:00:30Z")
	mark := now.AddDate(-1, 0, 0)
	last := utc(t, "2026-06-01T12:00:00Z")
	cases := []struct {
		opts  pipeline.TaskOptions
		fires int
		first time.Time // the first fire's stamp; the last fire goes through last
	}{
		{pipeline.TaskOptions{}, 1, last},
		{pipeline.TaskOptions{CatchUp: pipeline.CatchUpRunOnce}, 1, utc(t, "2025-06-01T12:01:00Z")},
		{pipeline.TaskOptions{CatchUp: pipeline.CatchUpRunAll, MaxCatchUp: 1000}, 1000, last.Add(-999 * time.Minute)},
	}
	for _, c := range cases {
		task := tickTask(t, "minutely", "* * * * *", "UTC", c.opts)
		start := time.Now()
		plan := pipeline.PlanTask(task, mark, now)
		if took := time.Since(start); took > time.Second {
			t.Errorf("%s: planning took %v", task.CatchUp(), took)
		}
		if len(plan) != c.fires || !plan[0][0].Equal(c.first) || !plan[len(plan)-1][1].Equal(last) {
			t.Errorf("%s: %d fires, first %v, last through %v", task.CatchUp(), len(plan), plan[0], plan[len(plan)-1][1])
		}
	}
	if plan := pipeline.PlanTask(tickTask(t, "idle", "0 0 1 1 *", "UTC"), last, now); len(plan) != 0 {
		t.Errorf("nothing due planned %v", plan)
	}
}
