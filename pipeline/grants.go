package pipeline

import (
	"strings"

	"github.com/jackc/pgx/v5"
)

// The rights a role needs in schema pipe to run pipe's workers (every
// room's jobs), its CLI and its console, derived from the statements they
// send: SELECT on every table (each is read: the operator's lists and
// show, the scheduler, the relay, the ledgers, and the retention counting
// a finished partition before it drops it), the writes each table takes,
// USAGE on the sequences that number its rows, and EXECUTE on the
// functions the statements call. Ownership of nothing: pipe.migrations is
// written by `pipe migrate` alone, pipe.clock by the test kit's frozen
// clock, the finished trees through pipe.runs and pipe.run_events (a
// settle moves a row there), and partitions are made and dropped by
// functions that run as the schema's owner.
var (
	// grantWrites are the tables the code inserts into, updates (an upsert
	// included) and deletes from.
	grantWrites = []string{
		"runs", "runs_open", "run_events", "run_events_open",
		"backfills", "consumer_cursors", "job_counters", "job_leases",
		"outbox", "outbox_batches", "published_events", "queue_pauses",
		"rate_buckets", "scheduler_leader", "task_state", "waits",
		"webhook_deliveries", "webhook_endpoints", "workers",
	}
	// grantSequences are the sequences the code and the column defaults
	// draw from.
	grantSequences = []string{"journal_seq", "outbox_id_seq", "published_events_id_seq", "webhook_deliveries_id_seq"}
	// grantFunctions are the functions the code calls (by their argument
	// types), the partitions' two among them.
	grantFunctions = []string{
		"now()", "acquire_slot(text, integer, uuid, integer, interval)",
		"transition(integer, integer, timestamptz)", "transitions(bytea)",
		"zone_offset(timestamptz, text)", "utc_instant(timestamp)", "local_start(timestamp, text)",
		"bucket_start(text, timestamptz, text)", "import_text(anyelement)", "import_input(text[], text[])",
		"run_partitions()", "ensure_run_partitions(timestamptz, boolean)", "drop_run_partition(text, text)",
		"adopt_legacy_run(uuid)", "move_legacy_runs(integer)",
	}
)

// Grants answers the statements that give role what pipe's workers, CLI
// and console need in schema pipe, for the owner of the schema (the role
// that ran `pipe migrate`) to run: `pipe grants` prints them. They are
// idempotent; run them again after each `pipe migrate`, since a new
// version may read a new table. Default privileges make the partitions the
// owner makes later readable by role too. role is quoted.
func Grants(role string) []string {
	r := pgx.Identifier{role}.Sanitize()
	stmts := []string{
		"grant usage on schema pipe to " + r,
		"grant select on all tables in schema pipe to " + r,
		"alter default privileges in schema pipe grant select on tables to " + r,
		"grant insert, update, delete on " + qualifiedList(grantWrites) + " to " + r,
		"grant usage on sequence " + qualifiedList(grantSequences) + " to " + r,
	}
	for _, f := range grantFunctions {
		name, args, _ := strings.Cut(f, "(")
		stmts = append(stmts, "grant execute on function "+pgx.Identifier{"pipe", name}.Sanitize()+"("+args+" to "+r)
	}
	return stmts
}

// qualifiedList answers pipe's tables names, quoted and comma-separated.
func qualifiedList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = pgx.Identifier{"pipe", n}.Sanitize()
	}
	return strings.Join(q, ", ")
}
