package errcode

// The codes of rollups and materialized-view refreshes (packages rollup and
// views). All are terminal: the same declaration or the same points, tried
// again, are refused again.
const (
	// JobRollupInvalid: a rollup's declaration is refused — no or a
	// non-positive lookback, no bucket, an unknown unit, a zone that is not
	// IANA, a key no unique index on the target covers exactly, or a source
	// that the catalog does not hold (a table, a column, a type).
	JobRollupInvalid Code = "X_JOB_ROLLUP_INVALID"
	// RollupPointInvalid: a rollup's points function answered a point the
	// run cannot write — one that is not a bucket's first instant, one
	// before the window, one whose columns differ from the first point's,
	// or two points with one key.
	RollupPointInvalid Code = "X_ROLLUP_POINT_INVALID"
	// JobRefreshViewInvalid: a refresh names a table, a plain view or no
	// relation, or asks for concurrently on a materialized view without a
	// unique index.
	JobRefreshViewInvalid Code = "X_JOB_REFRESH_VIEW_INVALID"
)

func init() {
	for _, c := range []Code{JobRollupInvalid, RollupPointInvalid, JobRefreshViewInvalid} {
		Register(c, Terminal)
	}
}
