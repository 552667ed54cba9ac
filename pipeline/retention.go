package pipeline

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// retentionLock serializes the passes that detach and drop partitions.
const retentionLock = 7401190238119

// expiredPartition is one partition of a finished tree whose every run is
// past retention.
type expiredPartition struct {
	tree, name string
	detaching  bool
}

// sqlExpired lists the expired partitions: those whose upper bound (the
// latest finish they can hold) is older than the retention of their class
// ($1 done, $2 dead). A detach a killed pass left pending comes first,
// then the oldest: PostgreSQL refuses a DETACH CONCURRENTLY in a tree
// while another partition of it is pending detach (55000), and a tree's
// old edge, made anew below the pending one, expires before it.
const sqlExpired = `select tree, name, detaching from pipe.run_partitions()
	where upper <= pipe.now() - case when tree like '%\_done' then $1::interval else $2::interval end
	order by detaching desc, upper, tree`

// dropExpired drops every expired partition of the finished trees. Given a
// transaction, or a pool that leads through a transaction pooler, it
// detaches in a transaction (see Maintain); else it holds one session of
// its own and detaches concurrently. A role that does not own the
// partitions (one holding what Grants gives) has them dropped by the
// schema's owner instead (dropExpiredAsOwner).
func dropExpired(ctx context.Context, db DB, r Retention, m *MaintainResult) error {
	owner, err := ownsRuns(ctx, db)
	if err != nil {
		return err
	}
	if !owner {
		return dropExpiredAsOwner(ctx, db, r, m)
	}
	if tx, ok := db.(pgx.Tx); ok {
		return dropExpiredInTx(ctx, tx, r, m)
	}
	if pool, ok := db.(*pgxpool.Pool); ok {
		// Through a transaction pooler the session lock would be taken on
		// one server and released on another: detach in a transaction.
		pooled, err := TransactionPooled(ctx, pool.Config().ConnConfig)
		if err != nil {
			return adminErr("retention", err)
		}
		if pooled {
			return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error { return dropExpiredInTx(ctx, tx, r, m) })
		}
		conn, err := pool.Acquire(ctx)
		if err != nil {
			return adminErr("retention", err)
		}
		defer conn.Release()
		return dropExpiredInSession(ctx, conn.Conn(), r, m)
	}
	return dropExpiredInSession(ctx, db, r, m)
}

// dropExpiredInSession detaches each expired partition CONCURRENTLY (the
// tree stays open to every claim, enqueue and settle meanwhile), then
// drops it; a detach a killed pass left pending is finished first. Passes
// in other processes are held off by a session advisory lock.
func dropExpiredInSession(ctx context.Context, db DB, r Retention, m *MaintainResult) (err error) {
	var got bool
	if err := db.QueryRow(ctx, `select pg_try_advisory_lock($1)`, int64(retentionLock)).Scan(&got); err != nil || !got {
		return adminErr("retention", err)
	}
	defer func() {
		_, unlockErr := db.Exec(context.WithoutCancel(ctx), `select pg_advisory_unlock($1)`, int64(retentionLock))
		err = errors.Join(err, adminErr("retention", unlockErr))
	}()
	parts, err := listExpired(ctx, db, r)
	if err != nil {
		return err
	}
	for _, p := range parts {
		how := "concurrently"
		if p.detaching {
			how = "finalize"
		}
		if _, err := db.Exec(ctx, fmt.Sprintf(`alter table %s detach partition %s %s`, p.treeIdent(), p.ident(), how)); err != nil {
			return adminErr("detach "+p.name, err)
		}
		if err := dropDetached(ctx, db, p, m); err != nil {
			return err
		}
	}
	return nil
}

// dropExpiredInTx detaches (or finishes detaching) and drops the expired
// partitions inside tx, each under a savepoint and a lock timeout of 500
// ms: one that cannot have its lock in time is left for the next pass.
func dropExpiredInTx(ctx context.Context, tx pgx.Tx, r Retention, m *MaintainResult) error {
	var got bool
	var timeout string
	if err := tx.QueryRow(ctx, `select pg_try_advisory_xact_lock($1), current_setting('lock_timeout')`,
		int64(retentionLock)).Scan(&got, &timeout); err != nil || !got {
		return adminErr("retention", err)
	}
	parts, err := listExpired(ctx, tx, r)
	if err != nil {
		return err
	}
	for _, p := range parts {
		err := pgx.BeginFunc(ctx, tx, func(sp pgx.Tx) error {
			if _, err := sp.Exec(ctx, `set local lock_timeout = '500ms'`); err != nil {
				return err
			}
			how := "" // a detach a killed pass left pending is finished
			if p.detaching {
				how = " finalize"
			}
			if _, err := sp.Exec(ctx, fmt.Sprintf(`alter table %s detach partition %s%s`, p.treeIdent(), p.ident(), how)); err != nil {
				return err
			}
			return dropDetached(ctx, sp, p, m)
		})
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == "55P03" {
			m.DropsDeferred++
			continue
		}
		if err != nil {
			return adminErr("drop "+p.name, err)
		}
	}
	_, err = tx.Exec(ctx, `select set_config('lock_timeout', $1, true)`, timeout)
	return adminErr("retention", err)
}

func listExpired(ctx context.Context, db DB, r Retention) ([]expiredPartition, error) {
	rows, err := db.Query(ctx, sqlExpired, r.Done, r.Dead)
	if err != nil {
		return nil, adminErr("retention", err)
	}
	parts, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (expiredPartition, error) {
		var p expiredPartition
		return p, row.Scan(&p.tree, &p.name, &p.detaching)
	})
	if err != nil {
		return nil, adminErr("retention", err)
	}
	dropping := map[string]bool{} // the trees that lose a partition other than an empty old edge
	empty := make([]bool, len(parts))
	for i, p := range parts {
		if empty[i], err = p.emptyOldEdge(ctx, db); err != nil {
			return nil, err
		}
		if !empty[i] {
			dropping[p.tree] = true
		}
	}
	kept := parts[:0]
	for i, p := range parts {
		if !empty[i] || dropping[p.tree] {
			kept = append(kept, p)
		}
	}
	return kept, nil
}

// emptyOldEdge tells whether p is a tree's old edge holding no row. Such an
// edge is dropped only with the partition above it (and made again below
// the tree's new first day, so that the tree stays whole): alone, the next
// pass would only make it again where it was.
func (p expiredPartition) emptyOldEdge(ctx context.Context, db DB) (bool, error) {
	if p.detaching || !strings.HasSuffix(p.name, "_old") {
		return false, nil
	}
	var holds bool
	err := db.QueryRow(ctx, `select exists (select from `+p.ident()+`)`).Scan(&holds)
	return !holds, adminErr("retention", err)
}

// dropDetached counts the runs of a detached partition (a journal's rows
// are not counted) and drops it.
func dropDetached(ctx context.Context, db DB, p expiredPartition, m *MaintainResult) error {
	if p.tree == "runs_done" || p.tree == "runs_dead" {
		n, estimated, err := p.runs(ctx, db)
		if err != nil {
			return adminErr("drop "+p.name, err)
		}
		m.Purged += n
		m.PurgedEstimated = m.PurgedEstimated || estimated
	}
	if _, err := db.Exec(ctx, `drop table `+p.ident()); err != nil {
		return adminErr("drop "+p.name, err)
	}
	m.PartitionsDropped++
	return nil
}

// purgeCountedBelow is the size under which a dropped partition's runs are
// counted exactly; above it the count is its statistics' (see runs). A
// variable for the tests only.
var purgeCountedBelow float64 = 100_000

// runs answers how many runs p holds: counted below purgeCountedBelow, else
// PostgreSQL's own count of its rows, and whether it is that estimate.
// Counting a day of a million runs read the whole partition, 0.2-0.5 s of a
// drop that otherwise unlinks files. The estimate is the greater of the
// cumulative statistics' live rows (pg_stat_all_tables.n_live_tup, kept at
// every commit, reset by a crash) and the rows the last VACUUM or ANALYZE
// saw (pg_class.reltuples, which lags the inserts after it): for a day
// written once, each an undercount when it is wrong. Never vacuumed,
// analyzed nor counted by the statistics, a partition is counted whatever
// its size.
func (p expiredPartition) runs(ctx context.Context, db DB) (int64, bool, error) {
	var est float64
	if err := db.QueryRow(ctx, `select greatest(c.reltuples, coalesce(s.n_live_tup, 0))
		from pg_class c left join pg_stat_all_tables s on s.relid = c.oid
		where c.oid = $1::regclass`, p.ident()).Scan(&est); err != nil {
		return 0, false, err
	}
	if est >= purgeCountedBelow {
		return int64(est + 0.5), true, nil
	}
	var n int64
	err := db.QueryRow(ctx, `select count(*) from `+p.ident()).Scan(&n)
	return n, false, err
}

func (p expiredPartition) ident() string { return pgx.Identifier{"pipe", p.name}.Sanitize() }

func (p expiredPartition) treeIdent() string { return pgx.Identifier{"pipe", p.tree}.Sanitize() }
