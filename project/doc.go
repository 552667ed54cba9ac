// Package project reads pipe.json, the project file in which a data team
// declares rollups, materialized-view refreshes and the tasks that enqueue
// them without writing Go.
//
// # The file
//
//	{
//	  "$schema": "./pipe.schema.json",
//	  "rollups": [{
//	    "name": "orders-daily", "into": "orders_daily", "key": ["org_id", "day"], "lookback": "2d",
//	    "bucket": {"unit": "day", "zone": "America/New_York", "column": "day"},
//	    "source": {"table": "orders", "time": "created_at", "groupBy": ["org_id"],
//	               "aggregates": [{"func": "count", "into": "orders"}, {"func": "sum", "column": "total", "into": "revenue"}]}
//	  }],
//	  "views": [{"name": "refresh-org-totals", "view": "org_totals", "concurrently": true}],
//	  "tasks": [{"name": "rollups-every-5m", "cron": "*/5 * * * *", "zone": "UTC", "run": ["orders-daily", "refresh-org-totals"]}]
//	}
//
// Its JSON Schema, pipe.schema.json ([SchemaJSON]), is generated from the Go
// types of this package and their comments; a test fails when the two
// disagree, and another holds the schema and [Load] to refusing the same
// files.
//
// # Loading
//
// [Load] decodes strictly (an unknown field is X_CONFIG_INVALID, with its
// line and column when it has one) and declares each rollup with
// rollup.New and each refresh with views.Refresh, every one with
// rollup.Request or views.Request as its input, and each task with
// pipeline.NewTask, whose entries enqueue the declarations it names. Every
// fault of the file is named in one error, each where it is in the file,
// coded as the first fault; errors.Is finds each fault's code.
//
// # Verifying
//
// [Project.Verify] asks the live catalog about every declaration — the check
// a worker makes when it starts — and answers one [Finding] each: `pipe
// verify --config pipe.json` prints them and exits non-zero on a fault.
// `pipe worker --config` and `pipe dev --config` run the declarations with a
// scheduler for the tasks.
package project
