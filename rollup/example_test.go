package rollup_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/rollup"
)

// Day buckets in America/New_York across both DST transitions of 2026: the
// key is local midnight as an instant, and the day is 23 or 25 hours long.
func ExampleUnit_Start() {
	ny, _ := time.LoadLocation("America/New_York")
	for _, ts := range []time.Time{
		time.Date(2026, 3, 8, 15, 0, 0, 0, time.UTC),
		time.Date(2026, 11, 1, 15, 0, 0, 0, time.UTC),
	} {
		start, next := rollup.Day.Start(ts, ny), rollup.Day.Next(ts, ny)
		fmt.Println(start.UTC().Format(time.RFC3339), next.Sub(start))
	}
	kolkata, _ := time.LoadLocation("Asia/Kolkata")
	fmt.Println(rollup.Hour.Start(time.Date(2026, 6, 10, 10, 45, 0, 0, time.UTC), kolkata).UTC().Format(time.RFC3339))
	// Output:
	// 2026-03-08T05:00:00Z 23h0m0s
	// 2026-11-01T04:00:00Z 25h0m0s
	// 2026-06-10T10:30:00Z
}

// The statement a rollup of the built-in SQL source runs, for reading and
// for EXPLAIN.
func ExampleSQL() {
	stmt, err := rollup.SQL(rollup.Options[rollup.Request]{
		Name: "daily-likes", Into: pg.Relation{Name: "likes_per_day"}, Key: []string{"org_id", "day"},
		Bucket:   rollup.Bucket{Unit: rollup.Day, Zone: "America/New_York", Column: "day"},
		Lookback: 48 * time.Hour,
		Source: &rollup.Source{Table: pg.Relation{Name: "likes"}, Time: "created_at", GroupBy: []string{"org_id"},
			Aggregates: []rollup.Aggregate{{Func: rollup.Count, Into: "likes"}}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(stmt[:strings.Index(stmt, "),")])
	// Output:
	// with grouped as (
	//     select "org_id",
	//            date_trunc($1, "created_at" at time zone $2) as "day",
	//            count(*) as "likes",
	//            count(*) as "pipe.rows"
	//       from "likes"
	//      where "created_at" >= $3
	//      group by 1, 2
}
