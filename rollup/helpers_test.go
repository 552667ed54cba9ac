package rollup_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/rollup"
)

// likesDDL is the source and target of most tests: likes by org, counted
// per day into likes_per_day.
const likesDDL = `
create table likes (id bigserial primary key, org_id int not null, weight int not null default 1, created_at timestamptz not null);
create index on likes (created_at);
create table likes_per_day (org_id int not null, day timestamptz not null, likes bigint not null, weight bigint,
	primary key (org_id, day));`

// likesDaily declares the per-day likes rollup in zone with the lookback.
func likesDaily(zone string, lookback time.Duration) rollup.Options[rollup.Request] {
	return rollup.Options[rollup.Request]{
		Name:     "test.likes-daily",
		Into:     pg.Relation{Name: "likes_per_day"},
		Key:      []string{"org_id", "day"},
		Bucket:   rollup.Bucket{Unit: rollup.Day, Zone: zone, Column: "day"},
		Lookback: lookback,
		Source: &rollup.Source{
			Table: pg.Relation{Name: "likes"}, Time: "created_at", GroupBy: []string{"org_id"},
			Aggregates: []rollup.Aggregate{{Func: rollup.Count, Into: "likes"}, {Func: rollup.Sum, Column: "weight", Into: "weight"}},
		},
		Job: pipeline.JobOptions[rollup.Request, rollup.Result]{Retry: &pipeline.Retry{Attempts: 3, Delay: 10 * time.Millisecond}},
	}
}

// setup answers a fresh database holding ddl.
func setup(t testing.TB, ddl string) *pgxpool.Pool {
	t.Helper()
	pool := fixtures.DB(t)
	exec(t, pool, ddl)
	return pool
}

func exec(t testing.TB, pool *pgxpool.Pool, sql string, args ...any) {
	t.Helper()
	if _, err := pool.Exec(context.Background(), sql, args...); err != nil {
		t.Fatalf("%s: %v", strings.TrimSpace(sql), err)
	}
}

// like inserts one like of org at the instant at.
func like(t testing.TB, pool *pgxpool.Pool, org int, at time.Time) {
	t.Helper()
	exec(t, pool, `insert into likes (org_id, created_at) values ($1, $2)`, org, at)
}

// runDone runs one rollup run to its end and answers its result, failing
// the test unless it is done.
func runDone(t testing.TB, pool *pgxpool.Pool, job *pipeline.Job[rollup.Request, rollup.Result], in rollup.Request) rollup.Result {
	t.Helper()
	d, res := fixtures.Run(t, pool, job, in)
	if d.State != "done" {
		t.Fatalf("rollup run %s: %s", d.State, lastError(d))
	}
	return res
}

func lastError(d *pipeline.RunDetail) string {
	if d.LastError == nil {
		return "no error"
	}
	return d.LastError.Code + ": " + d.LastError.Message
}

// bucketRow is one row of likes_per_day.
type bucketRow struct {
	Org   int
	Day   time.Time
	Likes int64
}

func (b bucketRow) String() string {
	return fmt.Sprintf("org %d %s: %d", b.Org, b.Day.UTC().Format(time.RFC3339), b.Likes)
}

// perDay answers likes_per_day in key order.
func perDay(t testing.TB, pool *pgxpool.Pool) []bucketRow {
	t.Helper()
	rows, err := pool.Query(context.Background(), `select org_id, day, likes from likes_per_day order by org_id, day`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []bucketRow
	for rows.Next() {
		var b bucketRow
		if err := rows.Scan(&b.Org, &b.Day, &b.Likes); err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	if rows.Err() != nil {
		t.Fatal(rows.Err())
	}
	return out
}

// likesOf answers the likes of org's bucket keyed day, or -1 when there is
// no row.
func likesOf(t testing.TB, pool *pgxpool.Pool, org int, day time.Time) int64 {
	t.Helper()
	for _, b := range perDay(t, pool) {
		if b.Org == org && b.Day.Equal(day) {
			return b.Likes
		}
	}
	return -1
}

func mustZone(t testing.TB, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// at answers the local wall-clock instant in loc.
func at(loc *time.Location, y int, m time.Month, d, h, mi int) time.Time {
	return time.Date(y, m, d, h, mi, 0, 0, loc)
}
