package errcode

// The codes of backfill passes (package backfill).
const (
	// BackfillInvalid: a pass's declaration is refused — no usable key (no
	// single-column primary key and none declared, a nullable key, a key the
	// target lacks), an unknown column, a statement that is not one UPDATE,
	// DELETE or INSERT … SELECT over the batch's range ($1 and $2), or both
	// or neither of SQL and Handle. Terminal: the same pass is refused again.
	BackfillInvalid Code = "X_BACKFILL_INVALID"
	// BackfillNotFound: no pass of the ledger has that run id or name.
	BackfillNotFound Code = "X_BACKFILL_NOT_FOUND"
)

func init() {
	for _, c := range []Code{BackfillInvalid, BackfillNotFound} {
		Register(c, Terminal)
	}
}
