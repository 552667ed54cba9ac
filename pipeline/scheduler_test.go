package pipeline_test

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 30, 0, time.UTC)

// everyFive answers the five-minute occurrences in (from, to].
func everyFive(from, to time.Time) []time.Time {
	var out []time.Time
	for at := from.Truncate(5 * time.Minute).Add(5 * time.Minute); !at.After(to); at = at.Add(5 * time.Minute) {
		out = append(out, at)
	}
	return out
}

func TestTwoSchedulersFireEachOccurrenceOnce(t *testing.T) {
	pool := fixtures.DB(t)
	clk := newSchedClock(t0)
	task := tickTask(t, "five", "*/5 * * * *", "UTC")
	a := startScheduler(t, pool, clk, "a", nil, task)
	b := startScheduler(t, pool, clk, "b", nil, task)
	if a.Leading() == b.Leading() {
		t.Fatalf("leading: a %v, b %v; want exactly one", a.Leading(), b.Leading())
	}
	clk.step(t, 2, 30, time.Minute)
	// The leader stops; the follower takes over at its next renewal.
	leader, follower := a, b
	if b.Leading() {
		leader, follower = b, a
	}
	if err := leader.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	clk.step(t, 1, 30, time.Minute)
	if !follower.Leading() {
		t.Fatal("the follower did not take over")
	}
	if got, want := firedAts(t, pool, "five"), everyFive(t0, clk.Now()); !sameInstants(got, want) {
		t.Fatalf("fired %v\nwant %v", got, want)
	}
}

func TestSchedulerTakesOverAfterTheLeaseLapses(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	clk := newSchedClock(t0)
	task := tickTask(t, "restart", "*/5 * * * *", "UTC")
	a := startScheduler(t, pool, clk, "a", nil, task)
	clk.step(t, 1, 6, time.Minute) // fires 00:05
	pipeline.AbandonScheduler(a)   // killed: the lease is still a's
	b := startScheduler(t, pool, clk, "b", nil, task)
	clk.step(t, 1, 2, 10*time.Second)
	if b.Leading() {
		t.Fatal("b leads while a's lease is live")
	}
	// The database clock passes a's lease expiry.
	if _, err := fixtures.Owner(t, pool).Exec(ctx, `insert into pipe.clock (shift) values (interval '31 seconds')`); err != nil {
		t.Fatal(err)
	}
	clk.step(t, 1, 1, 10*time.Second)
	if !b.Leading() {
		t.Fatal("b did not take over the lapsed lease")
	}
	clk.step(t, 1, 9, time.Minute)
	if got, want := firedAts(t, pool, "restart"), everyFive(t0, clk.Now()); !sameInstants(got, want) {
		t.Fatalf("fired %v\nwant %v", got, want)
	}
}

func TestCatchUpAfterDowntime(t *testing.T) {
	hour := func(h int) time.Time { return time.Date(2026, 1, 1, h, 0, 0, 0, time.UTC) }
	cases := []struct {
		opts        pipeline.TaskOptions
		at, through []time.Time
	}{
		{pipeline.TaskOptions{}, []time.Time{hour(5)}, []time.Time{hour(5)}},
		{pipeline.TaskOptions{CatchUp: pipeline.CatchUpRunOnce}, []time.Time{hour(1)}, []time.Time{hour(5)}},
		{pipeline.TaskOptions{CatchUp: pipeline.CatchUpRunAll, MaxCatchUp: 3},
			[]time.Time{hour(3), hour(4), hour(5)}, []time.Time{hour(3), hour(4), hour(5)}},
		{pipeline.TaskOptions{CatchUp: pipeline.CatchUpRunAll},
			[]time.Time{hour(1), hour(2), hour(3), hour(4), hour(5)}, []time.Time{hour(1), hour(2), hour(3), hour(4), hour(5)}},
	}
	for _, c := range cases {
		name := "catchup-" + string(c.opts.CatchUp) + "-" + time.Duration(c.opts.MaxCatchUp).String()
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			pool := fixtures.DB(t)
			clk := newSchedClock(t0)
			task := tickTask(t, "hourly", "0 * * * *", "UTC", c.opts)
			first := startScheduler(t, pool, clk, "first", nil, task) // arms at 00:00:30
			if err := first.Stop(context.Background()); err != nil {
				t.Fatal(err)
			}
			clk.Advance(5 * time.Hour) // downtime: 01:00 to 05:00 missed
			startScheduler(t, pool, clk, "second", nil, task)
			var at, through []time.Time
			for _, in := range fired(t, pool, "hourly") {
				at, through = append(at, in.At), append(through, in.Through)
			}
			if !sameInstants(at, c.at) || !sameInstants(through, c.through) {
				t.Fatalf("fired at %v through %v\nwant at %v through %v", at, through, c.at, c.through)
			}
			fires, err := pipeline.NewAdmin(pool).TaskFires(context.Background())
			if err != nil || len(fires) != 1 || !fires[0].Occurrence.Equal(c.at[len(c.at)-1]) {
				t.Fatalf("task fires %+v, %v", fires, err)
			}
		})
	}
}

func TestArmingFiresNothingInThePast(t *testing.T) {
	pool := fixtures.DB(t)
	clk := newSchedClock(t0.Add(59 * time.Minute)) // 00:59:30, long after 00:00
	startScheduler(t, pool, clk, "a", nil, tickTask(t, "armed", "0 * * * *", "UTC"))
	clk.step(t, 1, 1, 10*time.Second)
	if got := firedAts(t, pool, "armed"); len(got) != 0 {
		t.Fatalf("arming fired %v", got)
	}
	fires, err := pipeline.NewAdmin(pool).TaskFires(context.Background())
	if err != nil || len(fires) != 0 {
		t.Fatalf("arming is not a fire: %+v %v", fires, err)
	}
	clk.step(t, 1, 3, 10*time.Second)
	if got := firedAts(t, pool, "armed"); len(got) != 1 || !got[0].Equal(time.Date(2026, 1, 1, 1, 0, 0, 0, time.UTC)) {
		t.Fatalf("fired %v, want 01:00", got)
	}
}

func TestPauseAndResumeTask(t *testing.T) {
	ctx := context.Background()
	pool := fixtures.DB(t)
	admin := pipeline.NewAdmin(pool)
	clk := newSchedClock(t0)
	startScheduler(t, pool, clk, "a", nil, tickTask(t, "pausable", "*/5 * * * *", "UTC"))
	clk.step(t, 1, 6, time.Minute) // 00:05 fires
	if err := admin.PauseTask(ctx, "pausable"); err != nil {
		t.Fatal(err)
	}
	if paused, err := admin.PausedTasks(ctx); err != nil || len(paused) != 1 || paused[0] != "pausable" {
		t.Fatalf("paused %v %v", paused, err)
	}
	clk.step(t, 1, 12, time.Minute) // 00:10 and 00:15 pass paused
	if err := admin.ResumeTask(ctx, "pausable"); err != nil {
		t.Fatal(err)
	}
	clk.step(t, 1, 1, time.Minute) // the renewal learns of the resume; skip fires 00:15
	clk.step(t, 1, 3, time.Minute) // 00:20 fires
	want := []time.Time{t0.Add(270 * time.Second), t0.Add(870 * time.Second), t0.Add(1170 * time.Second)}
	if got := firedAts(t, pool, "pausable"); !sameInstants(got, want) {
		t.Fatalf("fired %v\nwant %v", got, want)
	}
	if err := admin.PauseTask(ctx, "no-such-task"); !errors.Is(err, errcode.JobUnknown) {
		t.Fatalf("pausing an unknown task: %v", err)
	}
}

func TestSchedulerWithNothingDueReadsNoStore(t *testing.T) {
	clk := newSchedClock(t0)
	counter := &statementCounter{}
	events := &eventLog{}
	startScheduler(t, tracedPool(t, counter), clk, "a", slog.New(events), tickTask(t, "quiet", "0 * * * *", "UTC"))
	counter.reset()
	clk.step(t, 1, 60, time.Second) // one idle minute, ticking every second
	if n := counter.count(); n != 6 {
		t.Fatalf("%d statements in an idle minute, want 6 (the lease renewals)", n)
	}
	for _, e := range []string{"tasks.scheduler.started", "tasks.leader.acquired", "tasks.armed"} {
		if !events.has(e) {
			t.Errorf("%s was not logged", e)
		}
	}
}

func TestNewSchedulerRefusesBadConfig(t *testing.T) {
	task := tickTask(t, "cfg", "@daily", "UTC")
	for _, cfg := range []pipeline.SchedulerConfig{
		{},
		{Tasks: []*pipeline.Task{task, task}},
		{Tasks: []*pipeline.Task{nil}},
		{Tasks: []*pipeline.Task{task}, Renew: 30 * time.Second},
		{Tasks: []*pipeline.Task{task}, Tick: -time.Second},
	} {
		if _, err := pipeline.NewScheduler(nil, cfg); !errors.Is(err, errcode.ConfigInvalid) {
			t.Errorf("%+v: err = %v", cfg, err)
		}
	}
}

func TestLeaderThatLosesTheLeaseStopsFiring(t *testing.T) {
	pool := fixtures.DB(t)
	clk := newSchedClock(t0)
	events := &eventLog{}
	a := startScheduler(t, pool, clk, "a", slog.New(events), tickTask(t, "usurped", "*/5 * * * *", "UTC"))
	clk.step(t, 1, 6, time.Minute) // 00:05 fires
	if _, err := pool.Exec(context.Background(),
		`update pipe.scheduler_leader set holder = 'usurper', expires_at = pipe.now() + interval '1 hour'`); err != nil {
		t.Fatal(err)
	}
	clk.step(t, 1, 10, time.Minute)
	if a.Leading() || !events.has("tasks.leader.lost") {
		t.Fatalf("a still leads (%v) or did not log tasks.leader.lost", a.Leading())
	}
	if got := firedAts(t, pool, "usurped"); len(got) != 1 {
		t.Fatalf("fired %v after losing the lease", got)
	}
}

// A fired occurrence wakes an idle worker through the fire statement's
// notify, and runs like any enqueued job.
func TestFiredJobWakesAWorkerAndRuns(t *testing.T) {
	pool := fixtures.DB(t)
	ran := make(chan tick, 1)
	job, err := pipeline.NewJob("woken", func(in tick) string { return in.At.String() },
		func(_ context.Context, run *pipeline.Run[tick]) (struct{}, error) {
			ran <- run.Input
			return struct{}{}, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	events := &eventLog{}
	startWorker(t, pool, pipeline.WorkerConfig{PollInterval: time.Minute, IdlePollMax: time.Minute, Logger: slog.New(events)}, job)
	events.await(t, "jobs.wake.live")
	task, err := pipeline.NewTask("wakes", "*/5 * * * *", "UTC", tickEntry(job))
	if err != nil {
		t.Fatal(err)
	}
	clk := newSchedClock(t0)
	startScheduler(t, pool, clk, "a", nil, task)
	clk.step(t, 1, 5, time.Minute)
	select {
	case in := <-ran:
		if !in.At.Equal(t0.Add(270 * time.Second)) {
			t.Fatalf("ran %v", in.At)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the fired job did not run within 20s: no wake")
	}
}
