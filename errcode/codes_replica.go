package errcode

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
