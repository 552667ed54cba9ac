package pipeline

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pipekit/pipe/errcode"
)

// grantCheck is one right Grants gives: a privilege on an object of a kind
// (table, sequence, function).
type grantCheck struct{ kind, object, privilege string }

// grantChecks answers every right Grants gives but USAGE on the schema,
// one privilege each (PostgreSQL's has_*_privilege answers true when any
// of a list is held).
func grantChecks() []grantCheck {
	var cs []grantCheck
	for _, t := range append(append([]string{}, grantWrites...), "migrations", "clock", "runs_done", "runs_dead",
		"run_events_done", "run_events_dead", "jobs", "events", "journal") {
		cs = append(cs, grantCheck{"table", "pipe." + t, "select"})
	}
	for _, t := range grantWrites {
		for _, p := range []string{"insert", "update", "delete"} {
			cs = append(cs, grantCheck{"table", "pipe." + t, p})
		}
	}
	for _, s := range grantSequences {
		cs = append(cs, grantCheck{"sequence", "pipe." + s, "usage"})
	}
	for _, f := range grantFunctions {
		cs = append(cs, grantCheck{"function", "pipe." + f, "execute"})
	}
	return cs
}

// sqlMissingGrants answers the rights of $1..$3 the current role lacks.
// An object this database does not hold (a schema an older pipe migrated,
// which a newer one is migrating) is skipped.
const sqlMissingGrants = `select c.k, c.o, c.p from unnest($1::text[], $2::text[], $3::text[]) c(k, o, p)
	where case
		when c.k = 'function' then case when to_regprocedure(c.o) is null then false
			else not has_function_privilege(c.o, c.p) end
		when to_regclass(c.o) is null then false
		when c.k = 'table' then not has_table_privilege(c.o, c.p)
		else not has_sequence_privilege(c.o, c.p) end`

// CheckGrants answers nil when the role db connects as holds every right
// Grants gives (an owner or a superuser holds them all), else
// X_POSTGRES_PERMISSION naming the first right missing and, in its fix,
// the `pipe grants` command for the role. The worker's Start and the CLI
// call it before their first statement on schema pipe, so that a role
// without the grants is refused at once rather than at its first claim.
func CheckGrants(ctx context.Context, db DB) error {
	var role string
	var usage bool
	err := db.QueryRow(ctx, `select current_user::text, has_schema_privilege('pipe', 'usage')`).Scan(&role, &usage)
	if err != nil {
		return adminErr("check the role's grants", err)
	}
	if !usage {
		return missingGrant(role, 0, "USAGE on schema pipe")
	}
	var kinds, objects, privs []string
	for _, c := range grantChecks() {
		kinds, objects, privs = append(kinds, c.kind), append(objects, c.object), append(privs, c.privilege)
	}
	rows, err := db.Query(ctx, sqlMissingGrants, kinds, objects, privs)
	if err != nil {
		return adminErr("check the role's grants", err)
	}
	missing, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (string, error) {
		var c grantCheck
		err := r.Scan(&c.kind, &c.object, &c.privilege)
		return strings.ToUpper(c.privilege) + " on " + c.kind + " " + c.object, err
	})
	if err != nil {
		return adminErr("check the role's grants", err)
	}
	if len(missing) > 0 {
		return missingGrant(role, len(missing)-1, missing[0])
	}
	return nil
}

// missingGrant is the refusal of role, which lacks first and others more.
func missingGrant(role string, others int, first string) error {
	more := ""
	if others > 0 {
		more = fmt.Sprintf(" and %d other right(s)", others)
	}
	return errcode.New(errcode.PostgresPermission, "role %s lacks %s%s that pipe's workers, CLI and console need",
		role, first, more).WithFix(errcode.PermissionFix(role)).WithMeta("sqlstate", "42501")
}

// grantsCheckTimeout bounds a worker's check of its grants at start.
const grantsCheckTimeout = 10 * time.Second

// checkGrants is CheckGrants at the worker's start: it is one short query,
// finished even when ctx ends meanwhile (a stop at start drains a worker
// that started, rather than failing its start), within grantsCheckTimeout.
func (w *Worker) checkGrants(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), grantsCheckTimeout)
	defer cancel()
	return CheckGrants(ctx, w.pool)
}
