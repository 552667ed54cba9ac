package rollup_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/pipeline"
	"github.com/pipekit/pipe/rollup"
)

// One X_JOB_ROLLUP_INVALID names every fault of a declaration.
func TestDeclarationNamesEveryFault(t *testing.T) {
	for name, tc := range map[string]struct {
		o      rollup.Options[rollup.Request]
		faults []string
	}{
		"empty": {rollup.Options[rollup.Request]{}, []string{
			"Name is empty", "Into is empty", "Key names no column", "Bucket.Unit is missing", "Bucket.Zone: the zone is empty",
			"Bucket.Column is empty", "Lookback is missing", "neither Source nor Points",
		}},
		"bad bucket": {rollup.Options[rollup.Request]{
			Name: "r", Into: pg.Relation{Name: strings.Repeat("x", 64)}, Key: []string{"day", "day", " "}, Lookback: -time.Hour,
			Bucket: rollup.Bucket{Unit: "fortnight", Zone: "Mars/Olympus_Mons", Column: "ts"},
			Points: func(context.Context, rollup.Query[rollup.Request]) ([]rollup.Point, error) { return nil, nil },
		}, []string{
			"Into: the relation name xxx", "is 64 bytes, over PostgreSQL's 63-byte limit", "Key names day twice", "Key has a blank column name",
			`Bucket.Unit "fortnight" is not`, `the zone "Mars/Olympus_Mons" is not a known IANA zone`,
			"Bucket.Column ts is not one of the Key's columns", "Lookback is negative",
		}},
		"local zone": {withZone("Local"), []string{"the zone Local depends on the host"}},
		"bad source": {rollup.Options[rollup.Request]{
			Name: "r", Into: pg.Relation{Name: "t"}, Key: []string{"org", "day"}, Lookback: time.Hour,
			Bucket: rollup.Bucket{Unit: rollup.Day, Zone: "UTC", Column: "day"},
			Source: &rollup.Source{GroupBy: []string{"region"}, Aggregates: []rollup.Aggregate{
				{Func: "median", Column: "x", Into: "m"}, {Func: rollup.Sum, Into: "s"}, {Func: rollup.Count, Into: "day"},
				{Func: rollup.Count, Into: "m"}, {Func: rollup.Max, Column: "x"}, {Func: rollup.Count, Into: "pipe.rows"},
			}},
			Points: func(context.Context, rollup.Query[rollup.Request]) ([]rollup.Point, error) { return nil, nil },
		}, []string{"both Source and Points"}},
		"source faults": {rollup.Options[rollup.Request]{
			Name: "r", Into: pg.Relation{Name: "t"}, Key: []string{"org", "day"}, Lookback: time.Hour,
			Bucket: rollup.Bucket{Unit: rollup.Day, Zone: "UTC", Column: "day"},
			Source: &rollup.Source{GroupBy: []string{"region"}, Aggregates: []rollup.Aggregate{
				{Func: "median", Column: "x", Into: "m"}, {Func: rollup.Sum, Into: "s"}, {Func: rollup.Count, Into: "day"},
				{Func: rollup.Count, Into: "m"}, {Func: rollup.Max, Column: "x"}, {Func: rollup.Count, Into: "pipe.rows"},
			}},
		}, []string{
			"Source.Table is empty", "Source.Time is empty", "Key must be the Source.GroupBy columns and Bucket.Column",
			`Source.Aggregates[0].Func "median" is not`, "Source.Aggregates[1].Column is empty: only count counts rows",
			"Source.Aggregates[2].Into day is a Key column", "Source.Aggregates[3].Into m is written twice",
			"Source.Aggregates[4].Into is empty", "Source.Aggregates[5].Into pipe.rows is the name pipe counts rows under",
		}},
		"no aggregates": {rollup.Options[rollup.Request]{
			Name: "r", Into: pg.Relation{Name: "t"}, Key: []string{"day"}, Lookback: time.Hour,
			Bucket: rollup.Bucket{Unit: rollup.Day, Zone: "UTC", Column: "day"},
			Source: &rollup.Source{Table: pg.Relation{Name: "s"}, Time: "ts"},
		}, []string{"Source.Aggregates is empty"}},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := rollup.New(rollup.WindowKey, tc.o)
			if !errors.Is(err, errcode.JobRollupInvalid) {
				t.Fatalf("New answered %v; want X_JOB_ROLLUP_INVALID", err)
			}
			for _, f := range tc.faults {
				if !strings.Contains(err.Error(), f) {
					t.Errorf("the error does not name %q:\n%v", f, err)
				}
			}
		})
	}
}

func withZone(zone string) rollup.Options[rollup.Request] {
	o := likesDaily(zone, time.Hour)
	return o
}

// The catalog check, asked by Registry.Verify (`pipe verify`) and by
// Worker.Start: each fault of the catalog is named, and a worker whose
// rollup fails it does not start.
func TestVerifyNamesEveryCatalogFault(t *testing.T) {
	pool := setup(t, likesDDL+`
		create table no_key (org_id int, day timestamptz, likes bigint, weight bigint);
		create table wrong_key (org_id int, day timestamptz, likes bigint, weight bigint, unique (org_id, day, likes));
		create table partial_key (org_id int, day timestamptz, likes bigint, weight bigint);
		create unique index on partial_key (org_id, day) where likes > 0;
		create table date_day (org_id int, day date, likes bigint, weight bigint, primary key (org_id, day));
		create view a_view as select * from likes_per_day;
		create table naive (id int, org_id int, weight int, created_at timestamp);
		create table texty (id int, org_id int, weight text, created_at timestamptz);
		create table short (org_id int, day timestamptz, likes bigint, primary key (org_id, day));`)
	for name, tc := range map[string]struct {
		edit  func(*rollup.Options[rollup.Request])
		fault string
	}{
		"no target":       {func(o *rollup.Options[rollup.Request]) { o.Into = pg.Relation{Name: "nope"} }, "Into nope does not exist"},
		"a view target":   {func(o *rollup.Options[rollup.Request]) { o.Into = pg.Relation{Name: "a_view"} }, "Into a_view is a view, not a table"},
		"no unique index": {func(o *rollup.Options[rollup.Request]) { o.Into = pg.Relation{Name: "no_key"} }, "no unique index on no_key covers exactly the Key"},
		"a wider index":   {func(o *rollup.Options[rollup.Request]) { o.Into = pg.Relation{Name: "wrong_key"} }, "no unique index on wrong_key covers exactly the Key"},
		"a partial index": {func(o *rollup.Options[rollup.Request]) { o.Into = pg.Relation{Name: "partial_key"} }, "no unique index on partial_key covers exactly the Key"},
		"an hour in a date": {func(o *rollup.Options[rollup.Request]) {
			o.Into, o.Bucket.Unit = pg.Relation{Name: "date_day"}, rollup.Hour
		}, "Bucket.Column day is date, which holds day and coarser buckets, not hour buckets"},
		"no value column": {func(o *rollup.Options[rollup.Request]) { o.Into = pg.Relation{Name: "short"} }, "the target has no column weight"},
		"no source":       {func(o *rollup.Options[rollup.Request]) { o.Source.Table = pg.Relation{Schema: "public", Name: "nope"} }, "Source.Table public.nope does not exist"},
		"naive time":      {func(o *rollup.Options[rollup.Request]) { o.Source.Table = pg.Relation{Name: "naive"} }, "Source.Time created_at is timestamp without time zone"},
		"no column": {func(o *rollup.Options[rollup.Request]) {
			o.Source.GroupBy = []string{"region"}
			o.Key = []string{"region", "day"}
		}, "Source.GroupBy: likes has no column region"},
		"sum of text": {func(o *rollup.Options[rollup.Request]) { o.Source.Table = pg.Relation{Name: "texty"} }, "does not plan (SQLSTATE 42883: an aggregate or an operator does not apply"},
		"bad where":   {func(o *rollup.Options[rollup.Request]) { o.Source.Where = "no_such = 1" }, "does not plan (SQLSTATE 42703"},
	} {
		t.Run(name, func(t *testing.T) {
			o := likesDaily("UTC", time.Hour)
			tc.edit(&o)
			reg, err := pipeline.NewRegistry(rollup.MustNew(rollup.WindowKey, o))
			if err != nil {
				t.Fatal(err)
			}
			err = reg.Verify(context.Background(), pool)
			if !errors.Is(err, errcode.JobRollupInvalid) || !strings.Contains(err.Error(), tc.fault) {
				t.Fatalf("Verify answered %v; want X_JOB_ROLLUP_INVALID naming %q", err, tc.fault)
			}
			w, err := pipeline.NewWorker(pool, pipeline.WorkerConfig{Registry: reg})
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Start(context.Background()); !errors.Is(err, errcode.JobRollupInvalid) {
				_ = w.Shutdown(context.Background())
				t.Fatalf("Start answered %v; want the refusal", err)
			}
		})
	}
	reg, _ := pipeline.NewRegistry(rollup.MustNew(rollup.WindowKey, likesDaily("UTC", time.Hour)))
	if err := reg.Verify(context.Background(), pool); err != nil {
		t.Fatalf("the good declaration: %v", err)
	}
}

// A catalog that changes under a started worker fails the run with the
// same words, terminal: the next attempt would be refused again.
func TestACatalogChangedSinceStartFailsTheRunTerminally(t *testing.T) {
	pool := setup(t, likesDDL)
	fixtures.FreezeClock(t, pool, time.Date(2026, 6, 10, 12, 0, 0, 0, time.UTC))
	job := rollup.MustNew(rollup.WindowKey, likesDaily("UTC", time.Hour))
	like(t, pool, 1, time.Date(2026, 6, 10, 11, 0, 0, 0, time.UTC))
	fixtures.StartWorker(t, pool, job)
	exec(t, pool, `alter table likes_per_day drop column weight`)
	res, err := job.Enqueue(context.Background(), pool, rollup.Request{})
	if err != nil {
		t.Fatal(err)
	}
	d := fixtures.AwaitSettled(t, pool, res.ID)
	if d.State != "dead" || d.Attempt != 1 || d.LastError == nil || d.LastError.Code != string(errcode.JobRollupInvalid) ||
		!strings.Contains(d.LastError.Message, "the target has no column weight") {
		t.Fatalf("run %s after %d attempts: %s", d.State, d.Attempt, lastError(d))
	}
}
