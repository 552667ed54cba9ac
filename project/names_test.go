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

// A file names tables as SQL does: a quoted name keeps its capitals and
// spaces, a bare one is folded to lower case, and the catalog finds each;
// a name that does not parse is the declaration's fault, named where it is.
func TestTheFileNamesTablesAsSQLDoes(t *testing.T) {
	doc := `{"rollups": [{"name": "r", "into": "Sales.\"Items Per Day\"", "key": ["Day"], "lookback": "2d",
		"bucket": {"unit": "day", "zone": "UTC", "column": "Day"},
		"source": {"table": "\"Sales\".\"Order Items\"", "time": "Paid At", "aggregates": [{"func": "count", "into": "Items"}]}}],
		"views": [{"name": "v", "view": "Sales.TOTALS"}]}`
	if err := schemaAccepts(t, compiledSchema(t), doc); err != nil {
		t.Fatal(err)
	}
	p, err := project.Load(write(t, doc))
	if err != nil {
		t.Fatal(err)
	}
	pool := fixtures.DB(t)
	if _, err := pool.Exec(context.Background(), `create schema "Sales"; create schema sales;
		create table "Sales"."Order Items" ("Paid At" timestamptz);
		create table sales."Items Per Day" ("Day" timestamptz primary key, "Items" bigint);
		create materialized view sales.totals as select 1 as x; create unique index on sales.totals (x)`); err != nil {
		t.Fatal(err)
	}
	found, err := p.Verify(context.Background(), pool)
	if err != nil || len(found) != 2 {
		t.Fatalf("%d findings, %v", len(found), err)
	}
	for _, f := range found {
		if f.Err != nil {
			t.Errorf("%s: %v", f.Name, f.Err)
		}
	}
	bad := strings.Replace(doc, `"Sales.\"Items Per Day\""`, `"Sales.Items Per Day"`, 1)
	bad = strings.Replace(bad, `"Sales.TOTALS"`, `"a.b.c"`, 1)
	_, err = project.Load(write(t, bad))
	if !errors.Is(err, errcode.JobRollupInvalid) || !errors.Is(err, errcode.JobRefreshViewInvalid) ||
		!strings.Contains(err.Error(), "rollups[0]") || !strings.Contains(err.Error(), "into: the relation name does not parse") ||
		!strings.Contains(err.Error(), "views[0]") || !strings.Contains(err.Error(), "view: the relation name has 3 parts") {
		t.Fatalf("Load answered %v", err)
	}
}
