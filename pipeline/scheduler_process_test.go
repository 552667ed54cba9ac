package pipeline_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pipeline"
)

type minuteIn struct {
	At time.Time `json:"at"`
}

func minuteJob() *pipeline.Job[minuteIn, int] {
	return pipeline.MustJob("every-minute", func(in minuteIn) string { return in.At.UTC().Format(time.RFC3339) },
		func(context.Context, *pipeline.Run[minuteIn]) (int, error) { return 0, nil })
}

func minuteTask() *pipeline.Task {
	return pipeline.MustTask("every-minute", "* * * * *", "UTC", []pipeline.TaskEntry{
		pipeline.Entry(minuteJob(), func(o pipeline.Occurrence) minuteIn { return minuteIn{At: o.At} }),
	}, pipeline.TaskOptions{CatchUp: pipeline.CatchUpRunAll})
}

// schedulerChild runs a scheduler on the database clock until SIGKILL.
func schedulerChild(ctx context.Context, pool *pgxpool.Pool) error {
	s, err := pipeline.NewScheduler(pool, pipeline.SchedulerConfig{
		Tasks: []*pipeline.Task{minuteTask()}, ID: os.Getenv("PIPE_TEST_SCHEDULER_ID"),
		Clock: pipeline.DatabaseClock(pool, 5*time.Millisecond),
	})
	if err != nil {
		return err
	}
	if err := s.Start(ctx); err != nil {
		return err
	}
	select {}
}

func startSchedulerProcess(t *testing.T, url, id string) *fixtures.Child {
	t.Helper()
	return fixtures.StartChild(t, url, "scheduler", "PIPE_TEST_SCHEDULER_ID="+id)
}

// Two scheduler processes race for one task, the leader is killed and a third
// takes over: every occurrence fires exactly once.
func TestATaskFiresOnceAcrossSchedulerProcessesAndARestart(t *testing.T) {
	ctx := context.Background()
	url := fixtures.DBURL(t)
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	clock := fixtures.FreezeClock(t, pool, time.Date(2026, 1, 1, 0, 0, 30, 0, time.UTC))
	a, b := startSchedulerProcess(t, url, "a"), startSchedulerProcess(t, url, "b")
	leader := awaitLeader(t, pool)
	for range 3 {
		clock.Advance(t, time.Minute)
	}
	awaitRuns(t, pool, clock, 3)
	map[string]*fixtures.Child{"a": a, "b": b}[leader].Kill(t)
	startSchedulerProcess(t, url, "c")
	for range 3 {
		clock.Advance(t, time.Minute) // past the dead leader's 30 s lease
	}
	awaitRuns(t, pool, clock, 6)
	rows, err := pool.Query(ctx, `select input->>'at', count(*) from pipe.jobs where name = 'every-minute' group by 1 order by 1`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var fired []string
	for rows.Next() {
		var at string
		var n int
		if err := rows.Scan(&at, &n); err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			t.Errorf("occurrence %s fired %d times", at, n)
		}
		fired = append(fired, at)
	}
	if len(fired) != 6 || fired[0] != "2026-01-01T00:01:00Z" || fired[5] != "2026-01-01T00:06:00Z" {
		t.Fatalf("fired %v; want the six minutes 00:01 to 00:06 once each", fired)
	}
}

func awaitLeader(t *testing.T, pool *pgxpool.Pool) string {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		var holder string
		if err := pool.QueryRow(context.Background(), `select holder from pipe.scheduler_leader`).Scan(&holder); err == nil {
			return holder
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("no scheduler process took the lead")
	return ""
}

// awaitRuns lets the frozen clock flow a second every 100 ms, up to the
// minute's 58th second (its instants sit at :30 or later, so the flow never
// reaches the next minute's occurrence), until n runs have fired: a
// scheduler acts on its ticks, and a frozen clock gives none. At 12 flows
// 20 ms apart a loaded CI run's scheduler processes missed the whole flow.
func awaitRuns(t *testing.T, pool *pgxpool.Pool, clock *fixtures.FrozenClock, n int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	got := 0
	for time.Now().Before(deadline) {
		if err := pool.QueryRow(context.Background(), `select count(*) from pipe.jobs where name = 'every-minute'`).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got >= n {
			return
		}
		if clock.Now().Second() < 58 {
			clock.Advance(t, time.Second)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%d runs fired; want %d", got, n)
}
