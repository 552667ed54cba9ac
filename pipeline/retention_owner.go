package pipeline

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// ownsRuns tells whether the current role has the rights of the owner of
// pipe's runs, which detaching and dropping their partitions take. A role
// holding only what Grants gives does not.
func ownsRuns(ctx context.Context, db DB) (bool, error) {
	var owner bool
	err := db.QueryRow(ctx, `select pg_has_role(current_user, relowner, 'usage') from pg_class
		where oid = 'pipe.runs'::regclass`).Scan(&owner)
	return owner, adminErr("retention", err)
}

// dropExpiredAsOwner drops the expired partitions for a role that does not
// own them, through pipe.drop_run_partition, which detaches (not
// concurrently: a function runs in a transaction) and drops each as the
// schema's owner under a lock timeout of 500 ms; one that cannot have its
// lock in time is left for the next pass (DropsDeferred). Each partition
// is its own transaction (a savepoint given one), and passes are held off
// by the same advisory lock as the owner's, for the transaction.
func dropExpiredAsOwner(ctx context.Context, db DB, r Retention, m *MaintainResult) error {
	return adminErr("retention", pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		var got bool
		if err := tx.QueryRow(ctx, `select pg_try_advisory_xact_lock($1)`, int64(retentionLock)).Scan(&got); err != nil || !got {
			return err
		}
		parts, err := listExpired(ctx, tx, r)
		if err != nil {
			return err
		}
		for _, p := range parts {
			if err := dropByOwner(ctx, tx, p, m); err != nil {
				return err
			}
		}
		return nil
	}))
}

// dropByOwner drops p through pipe.drop_run_partition under a savepoint,
// counting its runs first; a lock it could not have in time defers it.
func dropByOwner(ctx context.Context, tx pgx.Tx, p expiredPartition, m *MaintainResult) error {
	var purged int64
	var estimated, dropped bool
	err := pgx.BeginFunc(ctx, tx, func(sp pgx.Tx) error {
		var err error
		if p.tree == "runs_done" || p.tree == "runs_dead" {
			if purged, estimated, err = p.runs(ctx, sp); err != nil {
				return err
			}
		}
		return sp.QueryRow(ctx, `select pipe.drop_run_partition($1, $2)`, p.tree, p.name).Scan(&dropped)
	})
	var pgErr *pgconn.PgError
	switch {
	case errors.As(err, &pgErr) && pgErr.Code == "55P03":
		m.DropsDeferred++
		return nil
	case err != nil:
		return adminErr("drop "+p.name, err)
	case dropped:
		m.PartitionsDropped++
		m.Purged += purged
		m.PurgedEstimated = m.PurgedEstimated || estimated
	}
	return nil
}
