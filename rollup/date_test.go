package rollup_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/rollup"
)

// A bucket column of type date holds daily and coarser buckets: the
// bucket's first local day, in the declared zone (east of UTC here, where
// the first instant of a local day falls on the day before in UTC).
func TestADateBucketColumnHoldsTheLocalDay(t *testing.T) {
	pool := setup(t, strings.ReplaceAll(likesDDL, "day timestamptz not null", "day date not null"))
	kolkata, _ := time.LoadLocation("Asia/Kolkata")
	now := time.Now().In(kolkata)
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, kolkata)
	like(t, pool, 1, today.Add(10*time.Minute))                // today in Kolkata, yesterday in UTC
	like(t, pool, 1, today.Add(-10*time.Minute))               // yesterday in Kolkata
	like(t, pool, 2, today.AddDate(0, 0, -1).Add(time.Minute)) // yesterday in Kolkata

	job := rollup.MustNew(rollup.WindowKey, likesDaily("Asia/Kolkata", 48*time.Hour))
	reg, err := pipeline.NewRegistry(job)
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.Verify(context.Background(), pool); err != nil {
		t.Fatalf("a date column for a daily rollup is refused: %v", err)
	}
	res := runDone(t, pool, job, rollup.Request{})
	if res.Rows != 3 || res.Written != 3 {
		t.Fatalf("the run read %d rows and wrote %d buckets; want 3 and 3", res.Rows, res.Written)
	}
	got := dayRows(t, pool)
	y, d := today.AddDate(0, 0, -1).Format(time.DateOnly), today.Format(time.DateOnly)
	want := []string{"1 " + y + " 1", "1 " + d + " 1", "2 " + y + " 1"}
	if !slices.Equal(got, want) {
		t.Fatalf("likes_per_day %v, want %v", got, want)
	}
	if again := runDone(t, pool, job, rollup.Request{}); again.Written != 0 {
		t.Fatalf("a second run over the same rows wrote %d buckets", again.Written)
	}

	// Below a day, a date cannot hold the bucket: refused by the catalog check.
	hourly := likesDaily("Asia/Kolkata", 48*time.Hour)
	hourly.Name, hourly.Bucket.Unit = "test.likes-hourly", rollup.Hour
	reg, _ = pipeline.NewRegistry(rollup.MustNew(rollup.WindowKey, hourly))
	err = reg.Verify(context.Background(), pool)
	if !errors.Is(err, errcode.JobRollupInvalid) || !strings.Contains(err.Error(), "Bucket.Column day is date, which holds day and coarser buckets, not hour buckets") {
		t.Fatalf("an hourly rollup into a date column: %v", err)
	}
}

// A Points source writes the same local days into a date column as the SQL
// source does.
func TestPointsIntoADateColumn(t *testing.T) {
	pool := setup(t, strings.ReplaceAll(likesDDL, "day timestamptz not null", "day date not null"))
	kolkata, _ := time.LoadLocation("Asia/Kolkata")
	now := time.Now().In(kolkata)
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, kolkata)
	like(t, pool, 1, today.Add(10*time.Minute))
	like(t, pool, 1, today.Add(-10*time.Minute))
	runDone(t, pool, rollup.MustNew(rollup.WindowKey, pointsDaily("Asia/Kolkata", countInGo)), rollup.Request{})
	want := []string{"1 " + today.AddDate(0, 0, -1).Format(time.DateOnly) + " 1", "1 " + today.Format(time.DateOnly) + " 1"}
	if got := dayRows(t, pool); !slices.Equal(got, want) {
		t.Fatalf("likes_per_day %v, want %v", got, want)
	}
}

// dayRows answers likes_per_day as "org day likes", in key order.
func dayRows(t *testing.T, pool *pgxpool.Pool) []string {
	t.Helper()
	var out []string
	err := pool.QueryRow(context.Background(),
		`select coalesce(array_agg(org_id || ' ' || day::text || ' ' || likes order by org_id, day), '{}') from likes_per_day`).Scan(&out)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A run as of a past instant takes it as its now — its window is the
// bucket holding as-of minus the lookback — while the clock of everything
// else runs on; it is keyed apart from a normal run.
func TestARunAsOfAPastInstant(t *testing.T) {
	pool := setup(t, likesDDL)
	asOf := time.Now().Add(-30 * 24 * time.Hour).UTC().Truncate(time.Microsecond)
	like(t, pool, 1, asOf.Add(-time.Hour))
	like(t, pool, 1, time.Now())
	job := rollup.MustNew(rollup.WindowKey, likesDaily("UTC", 24*time.Hour))
	res := runDone(t, pool, job, rollup.Request{AsOf: asOf})
	wantSince := time.Date(asOf.Year(), asOf.Month(), asOf.Day(), 0, 0, 0, 0, time.UTC).AddDate(0, 0, -1)
	if !res.Now.Equal(asOf) || !res.Since.Equal(wantSince) {
		t.Fatalf("as of %s the run read by %s from %s; want now %s, from %s", asOf, res.Now, res.Since, asOf, wantSince)
	}
	if res.Rows != 2 {
		t.Fatalf("the run read %d rows; want both (the source is read whole from its window on)", res.Rows)
	}
	normal := runDone(t, pool, job, rollup.Request{})
	if time.Since(normal.Now) > time.Hour || !normal.Since.After(asOf) {
		t.Fatalf("a normal run after the replay reads by %s from %s: the clock moved for more than the replay", normal.Now, normal.Since)
	}
	if rollup.WindowKey(rollup.Request{AsOf: asOf}) == rollup.WindowKey(rollup.Request{}) {
		t.Fatalf("a replay shares the normal run's key")
	}
}
