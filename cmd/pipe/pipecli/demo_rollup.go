package pipecli

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/rollup"
	"github.com/pipekit/pipe/views"
)

// The demo's rollup target and materialized view over demo_orders.
const demoRollupDDL = `drop materialized view if exists demo_orders_by_org;
drop table if exists demo_orders_daily;
create table demo_orders_daily (day timestamptz primary key, orders bigint not null, revenue bigint not null);
create materialized view demo_orders_by_org as
	select org_id, count(*) as orders, sum(total) as revenue from demo_orders group by org_id;
create unique index on demo_orders_by_org (org_id)`

// demoZone is the zone the demo's days are read in.
const demoZone = "America/New_York"

// demoRollupReport is what the demo's rollup part did.
type demoRollupReport struct {
	Backfill rollup.Result `json:"backfill"`
	Late     rollup.Result `json:"late"`
	// Day is the late order's day; Before and After its orders before and
	// after the run.
	Day    time.Time `json:"day"`
	Before int64     `json:"before"`
	After  int64     `json:"after"`
	// Refresh is the view's refresh, and OrgAfter the late order's org's
	// orders in it.
	Refresh  views.Result `json:"refresh"`
	OrgAfter int64        `json:"orgAfter"`
}

// demoRollupJob is the demo's daily rollup of demo_orders.
func demoRollupJob() (*rollupJob, error) {
	return rollup.New(rollup.WindowKey, rollup.Options[rollup.Request]{
		Name: "demo.orders-daily", Into: pg.Relation{Name: "demo_orders_daily"}, Key: []string{"day"},
		Bucket:   rollup.Bucket{Unit: rollup.Day, Zone: demoZone, Column: "day"},
		Lookback: 48 * time.Hour,
		Source: &rollup.Source{Table: pg.Relation{Name: "demo_orders"}, Time: "created_at", Aggregates: []rollup.Aggregate{
			{Func: rollup.Count, Into: "orders"}, {Func: rollup.Sum, Column: "total", Into: "revenue"},
		}},
	})
}

// demoRollup keeps a daily rollup of the imported orders: a backfill from
// the first order, then a late order and a normal run that moves its day;
// then a concurrent refresh of a materialized view picks the order up too.
func (a *app) demoRollup(ctx context.Context, pool *pgxpool.Pool) (*demoRollupReport, error) {
	if _, err := pool.Exec(ctx, demoRollupDDL); err != nil {
		return nil, err
	}
	job, err := demoRollupJob()
	if err != nil {
		return nil, err
	}
	var rep demoRollupReport
	var first time.Time
	if err := pool.QueryRow(ctx, `select min(created_at) from demo_orders`).Scan(&first); err != nil {
		return nil, err
	}
	a.say("rolling demo_orders up per day in %s into demo_orders_daily (a backfill from the first order)…\n", demoZone)
	if _, rep.Backfill, err = runHere(ctx, a, pool, job, rollup.Request{From: first}, nil); err != nil {
		return nil, err
	}
	if err := a.demoLateOrder(ctx, pool, job, &rep); err != nil {
		return nil, err
	}
	a.say("refreshing the materialized view demo_orders_by_org concurrently…\n")
	if _, rep.Refresh, err = runHere(ctx, a, pool, views.RefreshJob(), views.Target{View: pg.Relation{Name: "demo_orders_by_org"}, Concurrently: true}, nil); err != nil {
		return nil, err
	}
	err = pool.QueryRow(ctx, `select orders from demo_orders_by_org where org_id = '00000000-0000-4000-8000-0000000000de'`).Scan(&rep.OrgAfter)
	return &rep, err
}

// demoLateOrder inserts an order placed an hour ago by a new org and runs
// the rollup: the order's day moves, nothing older is read.
func (a *app) demoLateOrder(ctx context.Context, pool *pgxpool.Pool, job *rollupJob, rep *demoRollupReport) error {
	if err := pool.QueryRow(ctx, `select pipe.bucket_start('day', pipe.now() - interval '1 hour', $1)`, demoZone).Scan(&rep.Day); err != nil {
		return err
	}
	if err := pool.QueryRow(ctx, `select coalesce((select orders from demo_orders_daily where day = $1), 0)`, rep.Day).Scan(&rep.Before); err != nil {
		return err
	}
	if _, err := pool.Exec(ctx, `insert into demo_orders (id, org_id, total, note, created_at)
		values ($1, '00000000-0000-4000-8000-0000000000de', 4200, 'late', pipe.now() - interval '1 hour')`, uuid.NewString()); err != nil {
		return err
	}
	a.say("an order placed an hour ago arrives late; running the rollup (lookback 2 days)…\n")
	var err error
	if _, rep.Late, err = runHere(ctx, a, pool, job, rollup.Request{}, nil); err != nil {
		return err
	}
	return pool.QueryRow(ctx, `select orders from demo_orders_daily where day = $1`, rep.Day).Scan(&rep.After)
}

// narrateRollup prints what the rollup part did.
func (a *app) narrateRollup(r *demoRollupReport) {
	loc, _ := time.LoadLocation(demoZone)
	fmt.Fprintf(a.stdout, "rolled %d orders up into %d days (%d written) from %s.\n",
		r.Backfill.Rows, r.Backfill.Buckets, r.Backfill.Written, r.Backfill.Since.In(loc).Format("2006-01-02 15:04 MST"))
	fmt.Fprintf(a.stdout, "the late order moved the day of %s from %d to %d orders; that run read only the %d orders since %s and wrote %d of its %d days.\n",
		r.Day.In(loc).Format("2006-01-02"), r.Before, r.After, r.Late.Rows, r.Late.Since.In(loc).Format("2006-01-02 15:04 MST"), r.Late.Written, r.Late.Buckets)
	how := "plainly (it held no data yet)"
	if r.Refresh.Concurrently {
		how = "concurrently: readers kept the old rows until it committed"
	}
	fmt.Fprintf(a.stdout, "refreshed %s %s; the late order's org now shows %d order.\n\n", r.Refresh.View, how, r.OrgAfter)
}
