// Package views refreshes materialized views as jobs on pipe's core
// ([pipeline.Job]): a scheduled task enqueues the refresh, the core retries
// it, `pipe jobs show` shows it.
//
// # Declaring
//
//	var refreshPostTotals = views.MustRefresh(views.Options{
//		Name:         "refresh-post-totals",
//		View:         pg.Relation{Name: "post_totals"},
//		Concurrently: true, // readers keep the old rows meanwhile
//	})
//
// Each run is one step: REFRESH MATERIALIZED VIEW [CONCURRENTLY], committed
// with the step's completion. A refresh has no tenant: the view's readers
// scope its rows (a declared Tenant is refused).
//
// # Concurrently
//
// A plain refresh takes an ACCESS EXCLUSIVE lock: it waits for the view's
// readers, and readers that come after it wait for it. CONCURRENTLY builds
// the new contents beside the old and merges them in, so readers keep
// reading the old rows until it commits — a reader inside a repeatable-read
// transaction keeps them to its end. It needs a unique index on the view
// whose columns are plain columns and that has no WHERE. A view made WITH NO
// DATA has no rows anyone can read, and PostgreSQL refuses to refresh it
// concurrently: its first refresh is a plain one ([Result].Concurrently
// says which ran).
//
// # Refusals
//
// A table, a plain view, a relation that does not exist, or Concurrently on
// a view without such an index is X_JOB_REFRESH_VIEW_INVALID (terminal):
// checked against the catalog when a worker starts and by `pipe verify`
// (the job's Verify), and again by every run.
//
// # The stock job
//
// [RefreshJob] is pipe.views.refresh, which `pipe views refresh VIEW
// [--concurrently]` enqueues and every `pipe worker` runs: its input names
// the view, checked when the run starts.
package views
