package rollup_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/rollup"
)

// A day bucket in America/New_York is 23 hours on the spring-forward day
// and 25 on the fall-back day; its key is that day's local midnight as an
// instant, and the first and last instants of the local day land in it.
func TestNewYorkDaysAcrossBothTransitions(t *testing.T) {
	ny := mustZone(t, "America/New_York")
	for _, tc := range []struct {
		name  string
		day   time.Time // local midnight
		hours int
	}{
		{"spring-forward", at(ny, 2026, 3, 8, 0, 0), 23},
		{"fall-back", at(ny, 2026, 11, 1, 0, 0), 25},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pool := setup(t, likesDDL)
			next := tc.day.Add(time.Duration(tc.hours) * time.Hour) // the next local midnight
			fixtures.FreezeClock(t, pool, next.Add(time.Hour))
			like(t, pool, 1, tc.day)                                                     // the day's first instant
			like(t, pool, 1, tc.day.Add(-time.Microsecond))                              // the previous day's last
			like(t, pool, 1, next.Add(-time.Microsecond))                                // the day's last instant
			like(t, pool, 1, next)                                                       // the next day's first
			like(t, pool, 1, at(ny, tc.day.Year(), tc.day.Month(), tc.day.Day(), 1, 30)) // 1:30, twice on fall-back
			if tc.hours == 25 {
				like(t, pool, 1, at(ny, 2026, 11, 1, 1, 30).Add(time.Hour)) // the second 1:30 (EST)
			}
			runDone(t, pool, rollup.MustNew(rollup.WindowKey, likesDaily("America/New_York", 48*time.Hour)), rollup.Request{})
			want := int64(3)
			if tc.hours == 25 {
				want = 4
			}
			if got := likesOf(t, pool, 1, tc.day); got != want {
				t.Fatalf("the %s day keyed %s holds %d likes; want %d (rows %v)", tc.name, tc.day.UTC(), got, want, perDay(t, pool))
			}
			if got := likesOf(t, pool, 1, next); got != 1 {
				t.Fatalf("the next day keyed %s holds %d; want 1", next.UTC(), got)
			}
			if got := rollup.Day.Next(tc.day, ny).Sub(tc.day); got != time.Duration(tc.hours)*time.Hour {
				t.Fatalf("Go's day is %s long; want %dh", got, tc.hours)
			}
		})
	}
}

// Zones whose offset is not whole hours: in Asia/Kolkata (+05:30) an hour
// starts at :30 UTC and a day at 18:30 UTC the evening before; in
// Australia/Adelaide (+10:30, +09:30 in winter, DST from the first Sunday
// of October) the spring-forward day is 23 hours and the fall-back day 25.
func TestHalfHourZones(t *testing.T) {
	t.Run("Kolkata hours", func(t *testing.T) {
		pool := setup(t, likesDDL+`create table likes_per_hour (org_id int, hour timestamptz, likes bigint, primary key (org_id, hour));`)
		fixtures.FreezeClock(t, pool, time.Date(2026, 6, 10, 12, 0, 0, 0, time.UTC))
		o := likesDaily("Asia/Kolkata", 3*time.Hour)
		o.Into, o.Key = pg.Relation{Name: "likes_per_hour"}, []string{"org_id", "hour"}
		o.Bucket = rollup.Bucket{Unit: rollup.Hour, Zone: "Asia/Kolkata", Column: "hour"}
		o.Source.Aggregates = o.Source.Aggregates[:1]
		like(t, pool, 1, time.Date(2026, 6, 10, 10, 29, 59, 0, time.UTC)) // local 15:59:59
		like(t, pool, 1, time.Date(2026, 6, 10, 10, 30, 0, 0, time.UTC))  // local 16:00
		like(t, pool, 1, time.Date(2026, 6, 10, 11, 29, 0, 0, time.UTC))  // local 16:59
		res := runDone(t, pool, rollup.MustNew(rollup.WindowKey, o), rollup.Request{})
		if want := time.Date(2026, 6, 10, 8, 30, 0, 0, time.UTC); !res.Since.Equal(want) {
			t.Fatalf("since %s; want %s, the local hour holding now - 3h", res.Since, want)
		}
		got := hours(t, pool)
		want := map[time.Time]int64{time.Date(2026, 6, 10, 9, 30, 0, 0, time.UTC): 1, time.Date(2026, 6, 10, 10, 30, 0, 0, time.UTC): 2}
		if len(got) != len(want) {
			t.Fatalf("hours %v; want %v", got, want)
		}
		for k, v := range want {
			if got[k] != v {
				t.Fatalf("hours %v; want %v", got, want)
			}
		}
	})
	t.Run("Kolkata days", func(t *testing.T) {
		pool := setup(t, likesDDL)
		fixtures.FreezeClock(t, pool, time.Date(2026, 6, 10, 12, 0, 0, 0, time.UTC))
		like(t, pool, 1, time.Date(2026, 6, 9, 18, 30, 0, 0, time.UTC)) // local midnight, June 10
		like(t, pool, 1, time.Date(2026, 6, 9, 18, 29, 0, 0, time.UTC)) // local 23:59, June 9
		runDone(t, pool, rollup.MustNew(rollup.WindowKey, likesDaily("Asia/Kolkata", 24*time.Hour)), rollup.Request{})
		if got := likesOf(t, pool, 1, time.Date(2026, 6, 9, 18, 30, 0, 0, time.UTC)); got != 1 {
			t.Fatalf("June 10 in Kolkata holds %d; rows %v", got, perDay(t, pool))
		}
	})
	adl := mustZone(t, "Australia/Adelaide")
	for _, tc := range []struct {
		name  string
		day   time.Time
		hours int
	}{
		{"Adelaide spring-forward", at(adl, 2026, 10, 4, 0, 0), 23},
		{"Adelaide fall-back", at(adl, 2026, 4, 5, 0, 0), 25},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pool := setup(t, likesDDL)
			next := tc.day.Add(time.Duration(tc.hours) * time.Hour)
			if local := next.In(adl); local.Hour() != 0 || local.Minute() != 0 {
				t.Fatalf("the next local midnight is not %dh after the day's: %s", tc.hours, local)
			}
			fixtures.FreezeClock(t, pool, next.Add(time.Hour))
			like(t, pool, 1, tc.day)
			like(t, pool, 1, next.Add(-time.Microsecond))
			like(t, pool, 1, next)
			runDone(t, pool, rollup.MustNew(rollup.WindowKey, likesDaily("Australia/Adelaide", 48*time.Hour)), rollup.Request{})
			if got := likesOf(t, pool, 1, tc.day); got != 2 {
				t.Fatalf("the day keyed %s (%s) holds %d; want 2 (rows %v)", tc.day.UTC(), tc.day, got, perDay(t, pool))
			}
			if got := rollup.Day.Next(tc.day, adl).Sub(tc.day); got != time.Duration(tc.hours)*time.Hour {
				t.Fatalf("Go's day is %s; want %dh", got, tc.hours)
			}
		})
	}
}

// hours answers likes_per_hour by its key's instant in UTC.
func hours(t testing.TB, pool *pgxpool.Pool) map[time.Time]int64 {
	t.Helper()
	rows, err := pool.Query(context.Background(), `select hour, likes from likes_per_hour`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[time.Time]int64{}
	for rows.Next() {
		var h time.Time
		var n int64
		if err := rows.Scan(&h, &n); err != nil {
			t.Fatal(err)
		}
		out[h.UTC()] = n
	}
	return out
}
