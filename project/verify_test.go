package project_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/fixtures"
	"github.com/pipekit/pipe/project"
)

// exampleDDL holds what testdata/pipe.json needs.
const exampleDDL = `
create table orders (id bigserial primary key, org_id int, status text, total bigint, created_at timestamptz);
create index on orders (created_at);
create table orders_daily (org_id int, day timestamptz, orders bigint, revenue bigint, largest bigint, primary key (org_id, day));
create schema analytics;
create table analytics.orders_hourly (hour timestamptz primary key, orders bigint);
create materialized view org_totals as select org_id, count(*) as n from orders group by org_id;
create unique index on org_totals (org_id);`

// Verify asks the live catalog about every declaration: all hold on a
// database made for the file; each fault is named on one that is not.
func TestVerifyFindsEachDeclarationsFault(t *testing.T) {
	p, err := project.Load("testdata/pipe.json")
	if err != nil {
		t.Fatal(err)
	}
	pool := fixtures.DB(t)
	ctx := context.Background()
	if _, err := pool.Exec(ctx, exampleDDL); err != nil {
		t.Fatal(err)
	}
	found, err := p.Verify(ctx, pool)
	if err != nil || len(found) != 3 {
		t.Fatalf("%d findings, %v", len(found), err)
	}
	for _, f := range found {
		if f.Err != nil {
			t.Errorf("%s %s: %v", f.Kind, f.Name, f.Err)
		}
	}
	if _, err := pool.Exec(ctx, `drop index org_totals_org_id_idx; alter table analytics.orders_hourly drop constraint orders_hourly_pkey`); err != nil {
		t.Fatal(err)
	}
	found, err = p.Verify(ctx, pool)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]errcode.Code{"orders-daily": "", "orders-hourly-kolkata": errcode.JobRollupInvalid, "refresh-org-totals": errcode.JobRefreshViewInvalid}
	for _, f := range found {
		if code := want[f.Name]; code == "" && f.Err != nil || code != "" && !errors.Is(f.Err, code) {
			t.Errorf("%s: %v; want %q", f.Name, f.Err, code)
		}
		if f.Err == nil {
			continue
		}
		if g := goFieldName.FindString(f.Err.Error() + " " + fixOf(f.Err)); g != "" {
			t.Errorf("%s names the Go field %s, not the file's key: %v", f.Name, g, f.Err)
		}
	}
}

// A fault the catalog finds names the file's keys: rollups[1].bucket.column,
// not Bucket.Column.
func TestVerifyNamesTheFilesKeys(t *testing.T) {
	p, err := project.Load("testdata/pipe.json")
	if err != nil {
		t.Fatal(err)
	}
	pool := fixtures.DB(t)
	ctx := context.Background()
	if _, err := pool.Exec(ctx, exampleDDL+`;
		alter table analytics.orders_hourly alter column hour type text;
		alter table orders drop column total`); err != nil {
		t.Fatal(err)
	}
	found, err := p.Verify(ctx, pool)
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, f := range found {
		if f.Err != nil {
			msgs = append(msgs, f.Err.Error()+" fix: "+fixOf(f.Err))
		}
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{"rollups[1].bucket.column hour is text", "rollups[0].source.aggregates[1].column: orders has no column total"} {
		if !strings.Contains(all, want) {
			t.Errorf("the findings do not name %q:\n%s", want, all)
		}
	}
	if g := goFieldName.FindString(all); g != "" {
		t.Errorf("a finding names the Go field %s:\n%s", g, all)
	}
}
