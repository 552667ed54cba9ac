package views

import (
	"github.com/pipekit/pipe/pg"
	"github.com/pipekit/pipe/pipeline"
)

// Options declare a view refresh. Each field's comment gives its default; a
// fault is refused by [Refresh] with X_JOB_REFRESH_VIEW_INVALID.
type Options struct {
	// Name is the job's durable name. Required.
	Name string
	// View is the materialized view: pg.Relation{Name: "post_totals"}, or
	// pg.ParseRelation of its SQL spelling. Its Schema defaults to the
	// search path. Required.
	View pg.Relation
	// Concurrently refreshes with REFRESH MATERIALIZED VIEW CONCURRENTLY:
	// readers keep reading the old rows meanwhile. It needs a unique index
	// on the view (checked against the catalog by Verify). Default false: a
	// plain refresh, which locks readers out until it commits.
	Concurrently bool
	// Job are the job options (queue, retry, timeout...). A refresh has no
	// tenant — the view's readers scope its rows — so a Tenant is refused.
	// A Verify given here runs after the refresh's own.
	Job pipeline.JobOptions[Request, Result]
}

// Request is the input of a declared refresh: nothing. Its idempotency key
// is constant, so a fire while the last refresh is still live is that
// refresh.
type Request struct{}

// Target is the input of the stock job [RefreshJob] (`pipe views
// refresh`): the view, named in the input, and how to refresh it.
type Target struct {
	// View is the materialized view; in JSON, under "matview", as SQL
	// writes it: "sales.daily". (An input stored before, with the view
	// under "view" as schema.view, its names taken exactly, reads as the
	// same view.) Required.
	View pg.Relation `json:"matview"`
	// Concurrently asks for REFRESH ... CONCURRENTLY.
	Concurrently bool `json:"concurrently,omitempty"`
}

// Result is what a refresh answers.
type Result struct {
	// View is the view refreshed, as SQL writes it.
	View string `json:"view"`
	// Concurrently says how it was refreshed: a concurrent refresh of a
	// view that held no data yet (made WITH NO DATA) is a plain one, since
	// PostgreSQL refuses the concurrent form there and no reader could read
	// the view anyway.
	Concurrently bool `json:"concurrently"`
	// WasPopulated says whether the view held data before the refresh.
	WasPopulated bool `json:"wasPopulated"`
}
