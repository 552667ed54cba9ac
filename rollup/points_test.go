package rollup_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/rollup"
)

// pointsDaily declares the per-day likes rollup over an application's
// Points function.
func pointsDaily(zone string, points func(ctx context.Context, q rollup.Query[rollup.Request]) ([]rollup.Point, error)) rollup.Options[rollup.Request] {
	o := likesDaily(zone, 48*time.Hour)
	o.Name, o.Source, o.Points = "test.likes-points", nil, points
	return o
}

// countInGo is an application's source: it reads the window's likes
// through the run's transaction and buckets them in Go with Unit.Start.
func countInGo(ctx context.Context, q rollup.Query[rollup.Request]) ([]rollup.Point, error) {
	rows, err := q.Tx.Query(ctx, `select org_id, created_at from likes where created_at >= $1`, q.Since)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	type key struct {
		org int
		day int64
	}
	counts := map[key]int64{}
	var order []key
	for rows.Next() {
		var org int
		var ts time.Time
		if err := rows.Scan(&org, &ts); err != nil {
			return nil, err
		}
		k := key{org, q.Unit.Start(ts, q.Location).UnixMicro()}
		if counts[k] == 0 {
			order = append(order, k)
		}
		counts[k]++
	}
	var out []rollup.Point
	for _, k := range order {
		out = append(out, rollup.Point{Bucket: time.UnixMicro(k.day), Values: map[string]any{"org_id": k.org, "likes": counts[k]}})
	}
	return out, rows.Err()
}

// A Points source writes what the SQL source writes for the same rows,
// across the New York fall-back day, idempotently.
func TestPointsSourceMatchesTheSQLSource(t *testing.T) {
	ny := mustZone(t, "America/New_York")
	pool := setup(t, likesDDL)
	fixtures.FreezeClock(t, pool, at(ny, 2026, 11, 2, 9, 0))
	for _, ts := range []time.Time{at(ny, 2026, 10, 31, 0, 0), at(ny, 2026, 11, 1, 0, 0), at(ny, 2026, 11, 1, 1, 30), at(ny, 2026, 11, 1, 23, 59), at(ny, 2026, 11, 2, 8, 0)} {
		like(t, pool, 1, ts)
		like(t, pool, 2, ts.Add(time.Hour))
	}
	runDone(t, pool, rollup.MustNew(rollup.WindowKey, likesDaily("America/New_York", 48*time.Hour)), rollup.Request{})
	fromSQL := perDay(t, pool)
	exec(t, pool, `truncate likes_per_day`)
	job := rollup.MustNew(rollup.WindowKey, pointsDaily("America/New_York", countInGo))
	res := runDone(t, pool, job, rollup.Request{})
	if res.Buckets != int64(len(fromSQL)) || res.Written != res.Buckets {
		t.Fatalf("points run %+v; the SQL source wrote %d buckets", res, len(fromSQL))
	}
	assertRows(t, perDay(t, pool), fromSQL)
	if again := runDone(t, pool, job, rollup.Request{}); again.Written != 0 {
		t.Fatalf("the re-run wrote %d", again.Written)
	}
}

// Points the run cannot write are refused, terminal, naming the point by
// its index and never by its values; nothing is written.
func TestBadPointsAreRefused(t *testing.T) {
	utc := time.UTC
	day := at(utc, 2026, 6, 10, 0, 0)
	for name, tc := range map[string]struct {
		points []rollup.Point
		fault  string
	}{
		"mid-bucket":  {[]rollup.Point{{Bucket: day.Add(time.Hour), Values: map[string]any{"org_id": 1, "likes": 1}}}, "point 0 is not the first instant of a day in UTC"},
		"too early":   {[]rollup.Point{{Bucket: day, Values: map[string]any{"org_id": 1, "likes": 1}}, {Bucket: day.AddDate(0, 0, -5), Values: map[string]any{"org_id": 1, "likes": 1}}}, "point 1 is before the run's window"},
		"other cols":  {[]rollup.Point{{Bucket: day, Values: map[string]any{"org_id": 1, "likes": 1}}, {Bucket: day, Values: map[string]any{"org_id": 2}}}, "point 1 names other columns"},
		"no key col":  {[]rollup.Point{{Bucket: day, Values: map[string]any{"likes": 1}}}, "the points lack the key column org_id"},
		"bucket col":  {[]rollup.Point{{Bucket: day, Values: map[string]any{"org_id": 1, "day": day}}}, "name the bucket column day"},
		"unknown col": {[]rollup.Point{{Bucket: day, Values: map[string]any{"org_id": 1, "secret": "x"}}}, "the target has no column secret"},
		"one key":     {[]rollup.Point{{Bucket: day, Values: map[string]any{"org_id": 1, "likes": 1}}, {Bucket: day, Values: map[string]any{"org_id": 1, "likes": 2}}}, "two points have one key"},
		"wrong type":  {[]rollup.Point{{Bucket: day, Values: map[string]any{"org_id": "Ada Lovelace", "likes": 1}}}, "a value does not read as its column's type"},
	} {
		t.Run(name, func(t *testing.T) {
			pool := setup(t, likesDDL)
			fixtures.FreezeClock(t, pool, day.Add(12*time.Hour))
			o := pointsDaily("UTC", func(context.Context, rollup.Query[rollup.Request]) ([]rollup.Point, error) { return tc.points, nil })
			d, _ := fixtures.Run(t, pool, rollup.MustNew(rollup.WindowKey, o), rollup.Request{})
			if d.State != "dead" || d.Attempt != 1 || d.LastError == nil || d.LastError.Code != string(errcode.RollupPointInvalid) ||
				!strings.Contains(d.LastError.Message, tc.fault) {
				t.Fatalf("run %s after %d attempts: %s; want X_ROLLUP_POINT_INVALID naming %q", d.State, d.Attempt, lastError(d), tc.fault)
			}
			if strings.Contains(d.LastError.Message, "Ada") {
				t.Fatalf("the error quotes a value: %s", d.LastError.Message)
			}
			if rows := perDay(t, pool); len(rows) != 0 {
				t.Fatalf("a refused run wrote %v", rows)
			}
		})
	}
}

// Killed after each of its steps (the window, the upsert), a rollup run
// resumes and ends with the clean run's buckets and result.
func TestCrashAtEveryBoundaryLeavesTheCleanRunsBuckets(t *testing.T) {
	for name, o := range map[string]rollup.Options[rollup.Request]{
		"sql":    likesDaily("America/New_York", 48*time.Hour),
		"points": pointsDaily("America/New_York", countInGo),
	} {
		t.Run(name, func(t *testing.T) {
			ny := mustZone(t, "America/New_York")
			pool := setup(t, likesDDL)
			fixtures.FreezeClock(t, pool, at(ny, 2026, 3, 9, 6, 0))
			for h := range 50 {
				like(t, pool, 1+h%3, at(ny, 2026, 3, 7, 0, 0).Add(time.Duration(h)*time.Hour))
			}
			fixtures.MustCrashProof(t, pool, rollup.MustNew(rollup.WindowKey, o), rollup.Request{}, fixtures.CrashProofOptions{
				Reset: func(ctx context.Context) error {
					_, err := pool.Exec(ctx, `truncate likes_per_day`)
					return err
				},
				Effects: func(context.Context) (any, error) { return perDay(t, pool), nil },
			})
		})
	}
}
