package rollup_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/rollup"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// The generated statements, read as SQL: every identifier quoted (a
// column with a quote or a capital letter is still one identifier), every
// value a parameter, Where's parameters first. Rewrite with
// go test ./rollup -run Golden -update.
func TestGeneratedSQLGolden(t *testing.T) {
	cases := map[string]rollup.Options[rollup.Request]{
		"daily-likes": likesDaily("America/New_York", 48*time.Hour),
		"hourly-one-row-a-bucket": {
			Name: "hourly", Into: pg.Relation{Schema: "analytics", Name: "Hits Per Hour"}, Key: []string{"Hour"},
			Bucket: rollup.Bucket{Unit: rollup.Hour, Zone: "Asia/Kolkata", Column: "Hour"}, Lookback: 3 * time.Hour,
			Source: &rollup.Source{Table: pg.Relation{Schema: "web", Name: "hits"}, Time: "at", Aggregates: []rollup.Aggregate{
				{Func: rollup.Count, Into: "hits"}, {Func: rollup.Count, Column: "user\"id", Into: "with user"},
				{Func: rollup.Min, Column: "ms", Into: "fastest"}, {Func: rollup.Max, Column: "ms", Into: "slowest"},
				{Func: rollup.Avg, Column: "ms", Into: "mean"},
			}},
		},
		"monthly-revenue-filtered": {
			Name: "monthly", Into: pg.Relation{Name: "revenue_monthly"}, Key: []string{"org_id", "region", "month"},
			Bucket: rollup.Bucket{Unit: rollup.Month, Zone: "Europe/Berlin", Column: "month"}, Lookback: 40 * 24 * time.Hour,
			Source: &rollup.Source{Table: pg.Relation{Name: "orders"}, Time: "paid_at", GroupBy: []string{"org_id", "region"},
				Where:      "status = $1 and total > $2",
				Aggregates: []rollup.Aggregate{{Func: rollup.Sum, Column: "total", Into: "revenue"}}},
		},
	}
	for name, o := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := rollup.SQL(o)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", name+".sql")
			if *update {
				if err := os.WriteFile(path, []byte(got+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to write it)", err)
			}
			if got+"\n" != string(want) {
				t.Fatalf("the statement changed; run with -update if it should have.\ngot:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
