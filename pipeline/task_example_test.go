package pipeline_test

import (
	"context"
	"fmt"
	"time"

	"github.com/pipekit/pipe/pipeline"
)

type nightlyInput struct {
	Day string `json:"day"`
}

// A task enqueues its entries at each occurrence of a cron expression read in
// an IANA zone. NextTaskRun answers the occurrence the scheduler will fire.
func ExampleNewTask() {
	rollup := pipeline.MustJob("nightly-rollup",
		func(in nightlyInput) string { return "rollup:" + in.Day }, // one run per day
		func(ctx context.Context, run *pipeline.Run[nightlyInput]) (int, error) { return 0, nil })
	task := pipeline.MustTask("nightly", "30 2 * * *", "America/New_York", []pipeline.TaskEntry{
		pipeline.Entry(rollup, func(o pipeline.Occurrence) nightlyInput {
			return nightlyInput{Day: o.At.Format(time.DateOnly)}
		}),
	})
	// 02:30 does not exist on the spring-forward day: it fires once, as the
	// clock jumps to 03:00.
	from := time.Date(2026, 3, 7, 12, 0, 0, 0, time.UTC)
	for range 2 {
		from = pipeline.NextTaskRun(task, from)
		fmt.Println(from.Format(time.RFC3339))
	}
	// Output:
	// 2026-03-08T03:00:00-04:00
	// 2026-03-09T02:30:00-04:00
}
