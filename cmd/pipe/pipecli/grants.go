package pipecli

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/spf13/cobra"

	"github.com/pipekit/pipe/errcode"
	"github.com/pipekit/pipe/internal/pgcatalog"
	"github.com/pipekit/pipe/pipeline"
)

// grantsLong is `pipe grants --help`: what the statements give, and what
// each room needs on the application's own tables, which pipe cannot know.
const grantsLong = "grants prints the SQL that lets role NAME run pipe's workers (every room's jobs), its CLI and\n" +
	"its console without owning anything: USAGE on schema pipe, SELECT on its tables (and, by default\n" +
	"privileges, on the partitions made later), the writes each table takes, USAGE on its sequences and\n" +
	"EXECUTE on the functions pipe calls. Run it as the owner of schema pipe (the role that ran\n" +
	"`pipe migrate`), after each `pipe migrate`; --apply runs it on --database-url as that owner.\n" +
	"Partitions are made and dropped by functions that run as the owner: the role needs no more.\n\n" +
	"On the application's own tables the role needs, per room:\n" +
	"  import     INSERT on the target; with a key also SELECT and UPDATE (the upsert) and TEMPORARY on\n" +
	"             the database (a staging table); a table your Handle writes, its rights\n" +
	"  export     SELECT on the table or the columns exported\n" +
	"  subject    SELECT, UPDATE and DELETE on every table the plan reaches\n" +
	"  rollup     SELECT on the source; INSERT, UPDATE and DELETE on the target\n" +
	"  views      REFRESH MATERIALIZED VIEW takes the view's owner: make the role own the view, or be a\n" +
	"             member of the role that does (PostgreSQL 17 adds the MAINTAIN privilege)\n" +
	"  backfill   SELECT and UPDATE on the table it walks; its replica-lag and transaction-age gates read\n" +
	"             other sessions' statistics, which takes membership in pg_monitor\n" +
	"  consumers, outbox, webhooks  only what your handlers touch\n" +
	"The database's CONNECT and TEMPORARY are PUBLIC's by default; a server that revoked them must grant them."

// grantsResult is what `pipe grants --json` prints.
type grantsResult struct {
	Role       string   `json:"role"`
	Statements []string `json:"statements"`
	Applied    bool     `json:"applied"`
}

func (a *app) grantsCommand() *cobra.Command {
	var role string
	var apply bool
	c := &cobra.Command{
		Use:   "grants --role NAME",
		Short: "Print the SQL that grants a role what pipe's workers, CLI and console need",
		Long:  grantsLong,
		Args:  noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if role == "" {
				return usageError(c, "--role is required: the role the workers, CLI and console connect as")
			}
			res := grantsResult{Role: role, Statements: pipeline.Grants(role)}
			if apply {
				if err := a.applyGrants(c.Context(), role, res.Statements); err != nil {
					return err
				}
				res.Applied = true
			}
			if a.json {
				return printJSON(a.stdout, res)
			}
			return printGrants(a, res)
		},
	}
	c.Flags().StringVar(&role, "role", "", "the role to grant (quoted as an identifier)")
	c.Flags().BoolVar(&apply, "apply", false, "run the statements on --database-url (as the owner of schema pipe) instead of only printing them")
	return c
}

// printGrants prints the statements as a script, or says they were applied.
func printGrants(a *app, res grantsResult) error {
	if res.Applied {
		_, err := fmt.Fprintf(a.stdout, "granted role %s what pipe needs in schema pipe (%d statements)\n", res.Role, len(res.Statements))
		return err
	}
	fmt.Fprintln(a.stdout, "-- Run as the owner of schema pipe (the role that ran `pipe migrate`), after each `pipe migrate`.")
	for _, s := range res.Statements {
		if _, err := fmt.Fprintln(a.stdout, s+";"); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(a.stdout, "-- A backfill's replica-lag and transaction-age gates read other sessions' statistics: a role\n"+
		"-- that may grant pg_monitor (a superuser, a managed service's admin) runs\n-- grant pg_monitor to %s;\n",
		pgx.Identifier{res.Role}.Sanitize())
	return err
}

// applyGrants runs stmts in one transaction on the command's database, as
// the owner of schema pipe: another role's default privileges would not
// cover the partitions the owner makes. A role the server does not know is
// refused first, by name (a role's name is configuration, not data).
func (a *app) applyGrants(ctx context.Context, role string, stmts []string) error {
	pool, err := a.connect(ctx, anySchema)
	if err != nil {
		return err
	}
	defer pool.Close()
	if err := mustOwnSchema(ctx, pool); err != nil {
		return err
	}
	if err := mustExist(ctx, pool, role); err != nil {
		return err
	}
	tx, err := pool.Begin(ctx)
	if err != nil {
		return errcode.Postgres(ctx, err, "grant")
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	for _, s := range stmts {
		if _, err := tx.Exec(ctx, s); err != nil {
			return errcode.Postgres(ctx, err, "grant")
		}
	}
	return errcode.Postgres(ctx, tx.Commit(ctx), "grant")
}

// mustExist refuses a role the server does not know.
func mustExist(ctx context.Context, pool *pgxpool.Pool, role string) error {
	var known bool
	if err := pool.QueryRow(ctx, `select exists (select 1 from pg_roles where rolname = $1)`, role).Scan(&known); err != nil {
		return errcode.Postgres(ctx, err, "look up the role")
	}
	if !known {
		return errcode.New(errcode.ConfigInvalid, "--role: role %q does not exist", role).
			WithFix(fmt.Sprintf("create it first (create role %s login), or name an existing role", pgcatalog.Quote(role)))
	}
	return nil
}

// mustOwnSchema refuses a connection whose role is not the owner of schema
// pipe (nor a member of it), or a database without the schema.
func mustOwnSchema(ctx context.Context, pool *pgxpool.Pool) error {
	var owner *bool
	err := pool.QueryRow(ctx, `select pg_has_role(current_user, nspowner, 'usage') from pg_namespace where nspname = 'pipe'`).Scan(&owner)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return errcode.Postgres(ctx, err, "look up the owner of schema pipe")
	}
	switch {
	case owner == nil:
		return notMigrated("the database has no pipe schema")
	case !*owner:
		return errcode.New(errcode.ConfigInvalid, "--apply connects as a role that does not own schema pipe").
			WithFix("pass --database-url as the role that ran `pipe migrate`, or print the statements without --apply and have that role run them")
	}
	return nil
}
