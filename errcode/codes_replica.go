package errcode

import (
	"errors"

	"github.com/jackc/pgx/v5/pgconn"
)

// The code of a read on a hot standby that recovery cancelled. It is
// retryable: the next attempt reads again, in a new snapshot.
const (
	// ReplicaConflict: a read on a standby (an export's rows read from a
	// replica) cancelled by a conflict with recovery (SQLSTATE 40001 on a
	// hot standby): the primary removed rows the read's snapshot still
	// needed, and the standby cancelled the read rather than delay replay
	// past max_standby_streaming_delay.
	ReplicaConflict Code = "X_REPLICA_CONFLICT"
)

// ReplicaConflictFix is the fix of a [ReplicaConflict] error.
const ReplicaConflictFix = "none for this run: it is retried; to stop it recurring, set hot_standby_feedback = on on the standby " +
	"(the primary then keeps what the standby's reads need, at the cost of bloat on the primary while they run), " +
	"or raise the standby's max_standby_streaming_delay, or read from the primary"

func init() { Register(ReplicaConflict, Retryable) }

// ReplicaRead codes err, a failure of a read on a hot standby: a read
// recovery cancelled (SQLSTATE 40001 there: "canceling statement due to
// conflict with recovery", or the session ended for it) is a
// [ReplicaConflict] whose fix names hot_standby_feedback, even when
// already coded by a caller that took it for a serialization failure;
// what names the read in the user's words. Any other err is answered
// unchanged.
func ReplicaRead(err error, what string) error {
	var pg *pgconn.PgError
	if CodeOf(err) == ReplicaConflict || !errors.As(err, &pg) || pg.Code != "40001" {
		return err
	}
	return Wrap(err, ReplicaConflict, "%s: the replica cancelled the read for a conflict with recovery", what).
		WithFix(ReplicaConflictFix).WithMeta("sqlstate", pg.Code)
}
