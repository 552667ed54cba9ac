// Package rollup keeps time-bucketed aggregates in an application's own
// table: likes per day per org, revenue per hour in the customer's zone.
// A rollup is a job on pipe's core ([pipeline.Job]): a scheduled task
// enqueues it, and each run recomputes only the recent buckets, correctly in
// any IANA zone, in one upsert.
//
// # Declaring
//
//	var dailyLikes = rollup.MustNew(rollup.WindowKey, rollup.Options[rollup.Request]{
//		Name:     "daily-likes",
//		Into:     pg.Relation{Name: "likes_per_day"}, // a unique index on (org_id, day)
//		Key:      []string{"org_id", "day"},
//		Bucket:   rollup.Bucket{Unit: rollup.Day, Zone: "America/New_York", Column: "day"},
//		Lookback: 48 * time.Hour,              // how late a row may arrive and still count
//		Source: &rollup.Source{
//			Table: pg.Relation{Name: "likes"}, Time: "created_at", GroupBy: []string{"org_id"},
//			Aggregates: []rollup.Aggregate{{Func: rollup.Count, Into: "likes"}},
//		},
//	})
//
// A declaration is checked twice. [New] refuses what it can see alone — no
// or a non-positive Lookback, no bucket, an unknown unit, a zone that is not
// IANA (or is Local), a Key that is not the group's columns and the bucket's
// — with one X_JOB_ROLLUP_INVALID naming every fault. The catalog is checked
// when a worker starts and by `pipe verify` (the job's Verify): the target is
// a table with a unique index covering exactly the Key, the bucket column is
// a timestamptz (or, for a day and coarser, a date: the bucket's first local
// day), the source's columns exist and its time column is a timestamptz,
// and the server plans the generated statement.
//
// # Each run
//
// A run's first step reads the database clock, pipe.now() (frozen by the
// test kit) — or the run's own [Request].AsOf, a replay of the run a past
// instant would have made, no clock frozen — and the window's first instant: the first instant of the bucket
// holding now - Lookback, in the bucket's zone, so the first bucket
// upserted is read whole. Its second step, in one transaction, reads every
// source row from there on, maps every point to a target row and writes
// them all in ONE INSERT ... ON CONFLICT on the Key: all buckets or none. A
// row is changed only when its values moved, so a re-run over the same rows
// writes nothing ([Result].Written is 0) and a late row inside the lookback
// moves its bucket on the next run. Runs of one rollup (and tenant) upsert
// one at a time across the fleet (an advisory lock held by the transaction).
//
// Not handled, by design: a row older than the window when it lands is not
// counted (run a backfill: [Request].From, `pipe rollup run NAME --from`),
// and a bucket whose rows were all deleted keeps its last value (nothing
// reads it again to find it empty).
//
// # Buckets, zones and DST
//
// A day, week (ISO, from Monday), month, quarter or year starts at local
// midnight as an instant: in America/New_York the spring-forward day is 23
// hours and the fall-back day 25, keyed 05:00 and 04:00 UTC. A minute or an
// hour starts where the local clock shows its start at the instant's own
// offset, so every hour is 60 real minutes (the two 1:00 hours of a
// fall-back day keep two keys) and Asia/Kolkata's hours start at :30 UTC.
// Where a transition skips local midnight the day starts at the transition;
// where a fall-back repeats it (America/Havana), at the first midnight. One
// zone breaks the rule that a key is its bucket's first instant: in
// Australia/Lord_Howe, whose DST shift is 30 minutes, the hour after each
// transition is keyed half an hour before it. The SQL function
// pipe.bucket_start(unit, ts, zone) (migration 0007) and [Unit.Start] in Go
// answer the same instants; the tests hold them to it.
//
// # Sources
//
// The built-in [Source] generates one statement (see [SQL], and the golden
// files under testdata): identifiers quoted, values as parameters —
// Source.Where's own first ($1..$N, from Options.Args), then the unit, the
// zone and the window's first instant — aggregates count (count(*) with no
// column), sum, min, max and avg. An index on the time column keeps a run's
// cost to the window's rows, whatever the table's size.
//
// A Points function is the application's own source: it reads through the
// run's transaction ([Query].Tx) from [Query].Since and answers one
// [Point] a target row. A point that is not a bucket's first instant, one
// before the window, one whose columns differ from the first point's, or two
// with one key are X_ROLLUP_POINT_INVALID, and nothing is written.
package rollup
